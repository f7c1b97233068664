/**
 * The mesh service's cluster peerings through `@sked/mesh-client`: the list with each peering's
 * state, kept current by a blocking query; generate a token for a peer; establish a peering with a
 * peer's token; delete a peering (with a confirmation).
 */
import type { MeshClient, Peering } from '@sked/mesh-client';
import { useState } from 'preact/hooks';
import { meshClient } from '../clients.js';
import { ConfirmDialog } from '../components/confirm.js';
import { DataTable } from '../components/data-table.js';
import { Problem } from '../components/problem.js';
import { TokenForm } from '../components/token-form.js';
import { useToken } from '../session.js';
import { needsToken, useWatch } from '../use-watch.js';

function Peerings(props: {
  peerings: readonly Peering[];
  onDelete: (name: string) => void;
}): preact.JSX.Element {
  if (props.peerings.length === 0) return <p class="empty">No peerings.</p>;
  return (
    <DataTable
      rows={props.peerings}
      rowKey={(peering) => peering.Name}
      labelledBy="peerings-title"
      columns={[
        { title: 'Name', cell: (peering) => peering.Name },
        {
          title: 'State',
          cell: (peering) => (
            <span class={`status status-${peering.State.toLowerCase()}`}>{peering.State}</span>
          ),
        },
        { title: 'Peer server', cell: (peering) => peering.PeerServerName },
        { title: 'Addresses', cell: (peering) => (peering.PeerServerAddresses ?? []).join(', ') },
        { title: 'Remote datacenter', cell: (peering) => peering.Remote?.Datacenter ?? '' },
        { title: 'Last heartbeat', cell: (peering) => peering.StreamStatus?.LastHeartbeat ?? '' },
        {
          title: <span class="visually-hidden">Actions</span>,
          cell: (peering) => (
            <button
              type="button"
              class="danger"
              disabled={peering.DeletedAt !== null}
              onClick={() => props.onDelete(peering.Name)}
            >
              Delete<span class="visually-hidden"> peering {peering.Name}</span>
            </button>
          ),
        },
      ]}
    />
  );
}

function GenerateToken(props: { client: MeshClient }): preact.JSX.Element {
  const [name, setName] = useState('');
  const [token, setToken] = useState<{ name: string; value: string } | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  return (
    <form
      class="panel"
      aria-labelledby="generate-title"
      onSubmit={(event) => {
        event.preventDefault();
        setError(undefined);
        props.client.peerings
          .generateToken({ PeerName: name.trim() })
          .then(({ data }) => setToken({ name: name.trim(), value: data.PeeringToken }), setError);
      }}
    >
      <h2 id="generate-title">Generate a token</h2>
      <label for="generate-name">Peer name</label>
      <input id="generate-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <button type="submit">Generate token</button>
      {error !== undefined ? <Problem error={error} what="Generating a token failed" /> : null}
      {token === undefined ? null : (
        <div>
          <label for="generated-token">
            Token for {token.name} (give it to the peer, which establishes with it)
          </label>
          <textarea id="generated-token" readonly rows={4} value={token.value} />
        </div>
      )}
    </form>
  );
}

function Establish(props: { client: MeshClient }): preact.JSX.Element {
  const [name, setName] = useState('');
  const [token, setToken] = useState('');
  const [outcome, setOutcome] = useState<{ error?: unknown; done?: string }>({});
  return (
    <form
      class="panel"
      aria-labelledby="establish-title"
      onSubmit={(event) => {
        event.preventDefault();
        const peer = name.trim();
        props.client.peerings.establish({ PeerName: peer, PeeringToken: token.trim() }).then(
          () => {
            setOutcome({ done: `Peering ${peer} established.` });
            setToken('');
          },
          (error: unknown) => setOutcome({ error }),
        );
      }}
    >
      <h2 id="establish-title">Establish a peering</h2>
      <label for="establish-name">Peer name</label>
      <input id="establish-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for="establish-token">Peering token</label>
      <textarea
        id="establish-token"
        required
        rows={3}
        value={token}
        onInput={(e) => setToken(e.currentTarget.value)}
      />
      <button type="submit">Establish</button>
      {outcome.done !== undefined ? <p role="status">{outcome.done}</p> : null}
      {outcome.error !== undefined ? <Problem error={outcome.error} what="Establishing failed" /> : null}
    </form>
  );
}

/** The mesh view. */
export function MeshView(): preact.JSX.Element {
  const token = useToken('acl');
  const client = meshClient(token);
  const peerings = useWatch((signal) => client.peerings.list.watch({ signal }), [client]);
  const [deleting, setDeleting] = useState<string | undefined>(undefined);
  const [deleteError, setDeleteError] = useState<unknown>(undefined);
  return (
    <section aria-labelledby="mesh-title">
      <h1 id="mesh-title">Mesh: cluster peering</h1>
      {needsToken(peerings.error) ? <TokenForm kind="acl" refused={token !== undefined} /> : null}
      <h2 id="peerings-title">Peerings</h2>
      {peerings.error !== undefined && !needsToken(peerings.error) ? (
        <Problem error={peerings.error} what="Listing the peerings failed" />
      ) : null}
      {deleteError !== undefined ? <Problem error={deleteError} what="Deleting failed" /> : null}
      {peerings.data === undefined ? null : <Peerings peerings={peerings.data} onDelete={setDeleting} />}
      <div class="columns">
        <GenerateToken client={client} />
        <Establish client={client} />
      </div>
      {deleting === undefined ? null : (
        <ConfirmDialog
          title={`Delete peering ${deleting}?`}
          confirmLabel="Delete peering"
          onCancel={() => setDeleting(undefined)}
          onConfirm={() => {
            const name = deleting;
            setDeleting(undefined);
            setDeleteError(undefined);
            client.peerings.delete(name).catch(setDeleteError);
          }}
        >
          <p>The peering turns TERMINATED and is removed once its data is deleted.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
