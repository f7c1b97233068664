// setupRequest of the registration benchmark, loaded by autocannon's worker thread: a new job each time.
'use strict';
const TEAMS = ['alpha', 'beta', 'gamma', 'delta'];
let next = 0;

function jobBody(i) {
  return JSON.stringify({
    Job: {
      ID: `bench-${String(i).padStart(6, '0')}`,
      Name: `bench-${i}`,
      Type: 'batch',
      Datacenters: ['dc1'],
      Meta: { team: TEAMS[i % TEAMS.length], index: String(i) },
      TaskGroups: [
        {
          Name: 'g',
          Count: 0,
          Tasks: [
            { Name: 't', Driver: 'mock', Config: { run_for: '1s' }, Resources: { CPU: 10, MemoryMB: 10 } },
          ],
        },
      ],
    },
  });
}

module.exports = function setupRequest(req) {
  return { ...req, body: jobBody(next++) };
};
module.exports.jobBody = jobBody;
