/**
 * Escaping of values put into LDAP filters (RFC 4515) and DNs (RFC 4514), and reading the value of
 * a DN's first RDN (the group name taken from a `memberOf` value).
 */

/**
 * Escapes a value for an LDAP search filter (RFC 4515 §3): `*`, `(`, `)`, `\`, NUL and every byte
 * outside ASCII become `\XX`, so a value can never change the filter's structure.
 * @param value - Any string (a username, a DN).
 * @returns The escaped value.
 */
export function escapeFilterValue(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    if (byte === 0x2a || byte === 0x28 || byte === 0x29 || byte === 0x5c || byte === 0 || byte > 0x7f) {
      out += `\\${byte.toString(16).padStart(2, '0')}`;
    } else {
      out += String.fromCharCode(byte);
    }
  }
  return out;
}

/**
 * Escapes an attribute value for a DN (RFC 4514 §2.4): `"`, `+`, `,`, `;`, `<`, `>`, `\` and `=`
 * get a backslash, a leading `#` or space and a trailing space are escaped, NUL becomes `\00`.
 * @param value - Any string (a username).
 * @returns The escaped value, safe as one RDN value.
 */
export function escapeDnValue(value: string): string {
  let out = value.replace(/["+,;<>\\=]/g, (c) => `\\${c}`).replace(/\0/g, '\\00');
  if (out.startsWith('#') || out.startsWith(' ')) out = `\\${out}`;
  // A trailing space is escaped unless it is the value's only character (escaped as leading above).
  // Decided on the value, not on `out`: in `out`, `\\ ` may be an escaped backslash and a space.
  if (value.endsWith(' ') && value.length > 1) out = `${out.slice(0, -1)}\\ `;
  return out;
}

function unescapeDnValue(raw: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === '\\' && i + 1 < raw.length) {
      const pair = raw.slice(i + 1, i + 3);
      if (/^[0-9a-fA-F]{2}$/.test(pair)) {
        bytes.push(Number.parseInt(pair, 16));
        i += 2;
      } else {
        bytes.push(...Buffer.from(raw[i + 1] as string, 'utf8'));
        i += 1;
      }
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The value of a DN's first RDN (`cn=devs,ou=groups,dc=example` gives `devs`; escapes are undone;
 * of a multi-valued RDN the first value). A value that is not a DN is returned as it is.
 * @param dn - A DN, or a plain name.
 * @returns The name.
 */
export function firstRdnValue(dn: string): string {
  let end = dn.length;
  for (let i = 0; i < dn.length; i++) {
    const c = dn[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === ',' || c === '+' || c === ';') {
      end = i;
      break;
    }
  }
  const rdn = dn.slice(0, end);
  const equals = rdn.indexOf('=');
  if (equals <= 0 || !/^\s*[A-Za-z][A-Za-z0-9-]*\s*$|^\s*\d+(\.\d+)*\s*$/.test(rdn.slice(0, equals)))
    return dn;
  let value = rdn.slice(equals + 1).replace(/^\s+/, '');
  // Trailing spaces are insignificant unless escaped (`\ `).
  while (value.endsWith(' ') && !/(^|[^\\])(\\\\)*\\ $/.test(value)) value = value.slice(0, -1);
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) return value.slice(1, -1);
  return unescapeDnValue(value);
}
