// The plainest code a person would write for what the mesh benchmark measures, run as its own
// process: an HTTP server answering an establishment POST and a prebuilt list, and a WebSocket
// server that sends a heartbeat on each connection every interval (one setInterval per socket).
//   node bench/mesh-baseline.mjs <heartbeatMs> [--dial ws://host:port N]
// As a server it prints `baseline listening on PORT`; with --dial it opens N sockets to a server
// and answers heartbeats with heartbeats, like the peer of a peering.
import http from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';

const heartbeatMs = Number(process.argv[2] ?? 1000);
const heartbeat = JSON.stringify({ type: 'heartbeat' });
const beat = (socket) => {
  socket.send(heartbeat);
  const timer = setInterval(() => socket.send(heartbeat), heartbeatMs);
  socket.on('close', () => clearInterval(timer));
};

if (process.argv[3] === '--dial') {
  const url = process.argv[4];
  const count = Number(process.argv[5]);
  let open = 0;
  for (let i = 0; i < count; i++) {
    const socket = new WebSocket(url);
    socket.on('open', () => {
      beat(socket);
      if (++open === count) process.stdout.write(`dialed ${count}\n`);
    });
    socket.on('message', () => {});
  }
} else {
  let listBody = '[]';
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'PUT') listBody = Buffer.concat(chunks).toString();
      const body = req.method === 'POST' ? JSON.stringify({ StreamSecret: 'x' }) : listBody;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket) => {
    beat(socket);
    socket.on('message', () => {});
  });
  server.listen(0, '127.0.0.1', () =>
    process.stdout.write(`baseline listening on ${server.address().port}\n`),
  );
}
