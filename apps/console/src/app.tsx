/** The console's frame: the header with the views and the token in use, then the current view. */
import { Link } from './components/link.js';
import { TokenForm } from './components/token-form.js';
import { type Route, useRoute } from './router.js';
import { aclRequired, saveToken, useToken } from './session.js';
import { EventsView } from './views/events.js';
import { JobView } from './views/job.js';
import { JobsView } from './views/jobs.js';
import { MeshView } from './views/mesh.js';
import { SecretsView } from './views/secrets.js';

const NAV: readonly { href: string; label: string; views: readonly Route['view'][] }[] = [
  { href: '/ui/jobs', label: 'Jobs', views: ['jobs', 'job'] },
  { href: '/ui/events', label: 'Events', views: ['events'] },
  { href: '/ui/secrets', label: 'Secrets', views: ['secrets'] },
  { href: '/ui/mesh', label: 'Mesh', views: ['mesh'] },
];

/** Views that read the scheduling or mesh service (which check the ACL token when ACLs are on). */
const ACL_VIEWS: readonly Route['view'][] = ['jobs', 'job', 'events', 'mesh'];

function CurrentView(props: { route: Route; token: string | undefined }): preact.JSX.Element {
  if (props.token === undefined && ACL_VIEWS.includes(props.route.view) && aclRequired()) {
    return (
      <section aria-labelledby="gate-title">
        <h1 id="gate-title">Token needed</h1>
        <TokenForm kind="acl" refused={false} />
      </section>
    );
  }
  switch (props.route.view) {
    case 'jobs':
      return <JobsView route={props.route} />;
    case 'job':
      return <JobView key={props.route.jobId} route={props.route} />;
    case 'events':
      return <EventsView route={props.route} />;
    case 'secrets':
      return <SecretsView />;
    case 'mesh':
      return <MeshView />;
    default:
      return (
        <section aria-labelledby="missing-title">
          <h1 id="missing-title">Not found</h1>
          <p>
            There is no such page. <Link href="/ui/jobs">See the jobs.</Link>
          </p>
        </section>
      );
  }
}

/** The console. */
export function App(): preact.JSX.Element {
  const route = useRoute();
  const token = useToken('acl');
  return (
    <>
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <header>
        <span class="brand">sked</span>
        <nav aria-label="Views">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} current={item.views.includes(route.view)}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {token === undefined ? null : (
          <button type="button" class="quiet" onClick={() => saveToken('acl', undefined)}>
            Forget ACL token
          </button>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        <CurrentView route={route} token={token} />
      </main>
    </>
  );
}
