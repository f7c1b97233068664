// The one HTTP helper of the benchmarks: a request with a JSON body, answered as status, headers and text.
import http from 'node:http';

/**
 * Sends one request.
 * @param {string} url - The full URL.
 * @param {string} method - GET, POST, ...
 * @param {string | undefined} body - The JSON text to send, if any.
 * @param {http.Agent | undefined} agent - The agent (keep-alive pools), if any.
 * @returns {Promise<{ status: number, headers: http.IncomingHttpHeaders, body: string }>}
 */
export function request(url, method, body, agent) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
