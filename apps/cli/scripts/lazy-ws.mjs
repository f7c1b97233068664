// Stands in for `ws` inside the bundle (scripts/bundle.mjs): the WebSocket library and the
// modules it loads (node:http, https, tls, crypto, zlib, net) are evaluated on the first exec
// session, not at every start of `sked` (about a fifth of `sked job status`'s start-up). The
// default export is a proxy of the WebSocket class: `new WebSocket(...)` and its statics
// (`WebSocket.OPEN`) load the real one; `require` (a CommonJS module's, which esbuild wraps and
// evaluates on the first call) keeps the load synchronous.
let real;
const load = () => (real ??= require('ws'));

export default new Proxy(function WebSocket() {}, {
  construct: (_target, args, newTarget) =>
    Reflect.construct(load(), args, newTarget === undefined ? undefined : load()),
  get: (_target, key) => Reflect.get(load(), key),
  has: (_target, key) => Reflect.has(load(), key),
});
