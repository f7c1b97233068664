// Child process of bench/run.mjs: holds N blocking queries open against the server (so that their
// client-side memory is not in the server's heap), and exits once every one has been answered.
//   node bench/waiters.mjs <url> <count>
import http from 'node:http';

const [url, countText] = process.argv.slice(2);
const count = Number(countText);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
let answered = 0;
let failed = 0;
for (let i = 0; i < count; i++) {
  const req = http.get(url, { agent }, (res) => {
    res.resume();
    res.on('end', () => {
      answered++;
      if (answered + failed === count) finish();
    });
  });
  req.on('error', () => {
    failed++;
    if (answered + failed === count) finish();
  });
}

function finish() {
  agent.destroy();
  process.stdout.write(`${answered} answered, ${failed} failed\n`);
  process.exit(failed === 0 ? 0 : 1);
}
