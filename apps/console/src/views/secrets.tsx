/**
 * The secrets service's LDAP auth method: its configuration (every field but `bindpass`, which the
 * page never shows), its groups and its users with their policies, read through
 * `@sked/secrets-client` with the secrets token of this tab.
 */
import type { LdapGroup, LdapUser, SecretsClient } from '@sked/secrets-client';
import { secretsClient } from '../clients.js';
import { DataTable } from '../components/data-table.js';
import { Problem } from '../components/problem.js';
import { TokenForm } from '../components/token-form.js';
import { saveToken, useToken } from '../session.js';
import { needsToken, useLoad } from '../use-watch.js';

/** Fields of the configuration never shown (the service answers `bindpass` empty; the page drops it anyway). */
const HIDDEN: ReadonlySet<string> = new Set(['bindpass']);

function text(value: unknown): string {
  if (Array.isArray(value)) return value.join(', ');
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

async function readAll<R>(
  list: () => Promise<{ data: string[] }>,
  read: (name: string) => Promise<{ data: R }>,
): Promise<{ data: { name: string; record: R }[] }> {
  const names = (await list()).data;
  const records = await Promise.all(names.map(async (name) => ({ name, record: (await read(name)).data })));
  return { data: records };
}

/** A group or user of the LDAP auth method, by name. */
interface RecordRow {
  readonly name: string;
  readonly record: LdapGroup | LdapUser;
}

function Records(props: {
  title: string;
  rows: readonly RecordRow[] | undefined;
  error: unknown;
  withGroups: boolean;
}): preact.JSX.Element {
  const id = `secrets-${props.title.toLowerCase()}`;
  return (
    <div>
      <h2 id={id}>{props.title}</h2>
      {props.error !== undefined ? (
        <Problem error={props.error} what={`Reading the ${props.title.toLowerCase()} failed`} />
      ) : null}
      {props.rows === undefined ? null : props.rows.length === 0 ? (
        <p class="empty">None.</p>
      ) : (
        <DataTable
          rows={props.rows}
          rowKey={(row) => row.name}
          labelledBy={id}
          columns={[
            { title: 'Name', cell: (row) => row.name },
            { title: 'Policies', cell: (row) => text(row.record.policies) },
            ...(props.withGroups
              ? [{ title: 'Groups', cell: (row: RecordRow) => text((row.record as LdapUser).groups) }]
              : []),
          ]}
        />
      )}
    </div>
  );
}

function Method(props: { client: SecretsClient }): preact.JSX.Element {
  const { ldap } = props.client;
  const config = useLoad((signal) => ldap.config.read({ signal }), [ldap]);
  const groups = useLoad(
    (signal) =>
      readAll(
        () => ldap.groups.list({ signal }),
        (n) => ldap.groups.read(n, { signal }),
      ),
    [ldap],
  );
  const users = useLoad(
    (signal) =>
      readAll(
        () => ldap.users.list({ signal }),
        (n) => ldap.users.read(n, { signal }),
      ),
    [ldap],
  );
  if (needsToken(config.error)) return <TokenForm kind="secrets" refused />;
  const entries = Object.entries(config.data ?? {}).filter(([name]) => !HIDDEN.has(name));
  return (
    <div>
      <div class="toolbar">
        <p class="hint">
          Method mounted at <code>{ldap.mountPath}</code>.
        </p>
        <button
          type="button"
          onClick={() => {
            config.reload();
            groups.reload();
            users.reload();
          }}
        >
          Refresh
        </button>
        <button type="button" onClick={() => saveToken('secrets', undefined)}>
          Forget secrets token
        </button>
      </div>
      <h2 id="secrets-config">Configuration</h2>
      {config.error !== undefined ? (
        <Problem error={config.error} what="Reading the configuration failed" />
      ) : null}
      {config.data === undefined ? null : (
        <dl class="config" aria-labelledby="secrets-config">
          {entries.map(([name, value]) => [
            <dt key={`${name}-t`}>{name}</dt>,
            <dd key={`${name}-d`}>{text(value)}</dd>,
          ])}
        </dl>
      )}
      <Records title="Groups" rows={groups.data} error={groups.error} withGroups={false} />
      <Records title="Users" rows={users.data} error={users.error} withGroups />
    </div>
  );
}

/** The secrets view: asks for the secrets token first (the service answers nothing without one). */
export function SecretsView(): preact.JSX.Element {
  const token = useToken('secrets');
  return (
    <section aria-labelledby="secrets-title">
      <h1 id="secrets-title">Secrets: LDAP auth method</h1>
      {token === undefined ? (
        <TokenForm kind="secrets" refused={false} />
      ) : (
        <Method client={secretsClient(token)} />
      )}
    </section>
  );
}
