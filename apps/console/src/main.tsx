/**
 * The sked web console: a single page served by `sked-server` at `/ui/`, built from the published
 * packages (`@sked/scheduler-client`, `@sked/secrets-client`, `@sked/mesh-client`, `@sked/filter`,
 * `@sked/model`) with Preact.
 */
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
