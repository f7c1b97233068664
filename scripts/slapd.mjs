#!/usr/bin/env node
// Starts a throwaway OpenLDAP (installing Debian's slapd when missing) and prints how to reach it;
// Ctrl-C stops it. Build the testkit first: `pnpm exec turbo run build --filter=@sked/testkit`.
//   node scripts/slapd.mjs            human-readable summary
//   node scripts/slapd.mjs --json     one JSON line (URLs, DNs, passwords, CA path), for scripts
import { startSlapd } from '../packages/testkit/dist/slapd/index.js';

const slapd = await startSlapd();
const info = {
  url: slapd.url,
  ldapsUrl: slapd.ldapsUrl,
  baseDn: slapd.baseDn,
  peopleDn: slapd.peopleDn,
  groupsDn: slapd.groupsDn,
  root: slapd.root,
  reader: slapd.reader,
  caFile: slapd.certificates.caFile,
  users: slapd.users.map((u) => ({ uid: u.uid, dn: u.dn, password: u.password })),
};
if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(info)}\n`);
} else {
  process.stdout.write(
    [
      `slapd listening on ${slapd.url} (StartTLS) and ${slapd.ldapsUrl}`,
      `base ${slapd.baseDn}; people ${slapd.peopleDn}; groups ${slapd.groupsDn}`,
      `bind as ${slapd.reader.dn} / ${slapd.reader.password}; CA ${slapd.certificates.caFile}`,
      `users: ${slapd.users.map((u) => `${u.uid}/${u.password}`).join(' ')}`,
      'Ctrl-C stops it.',
      '',
    ].join('\n'),
  );
}
const stop = () => void slapd.stop().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
setInterval(() => {}, 1 << 30);
