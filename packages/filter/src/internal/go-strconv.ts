/**
 * Ports of the parts of Go's `strconv` package that the reference implementation relies on:
 * `Unquote`, `ParseFloat(s, 64)`, `ParseBool` and `ParseInt(s, 0, 64)`.
 *
 * @internal
 * @packageDocumentation
 */

/** Result of a Go number parse: a value, or why it failed (`syntax` or `range`, as Go's `NumError`). */
export type GoParse<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: 'syntax' | 'range' };

const SYNTAX = { ok: false, reason: 'syntax' } as const;
const RANGE = { ok: false, reason: 'range' } as const;

function isDigitIn(code: number, base: number): boolean {
  if (base <= 10) return code >= 48 && code < 48 + base;
  return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) < 97 + base - 10);
}

/**
 * Go's `underscoreOK`: underscores may only separate digits (or follow a base prefix).
 * @internal
 */
export function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0') {
    const c = (s.charCodeAt(1) | 32) as number;
    if (c === 120 || c === 111 || c === 98) {
      i = 2;
      saw = '0';
      hex = c === 120;
    }
  }
  for (; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if ((ch >= 48 && ch <= 57) || (hex && (ch | 32) >= 97 && (ch | 32) <= 102)) {
      saw = '0';
      continue;
    }
    if (ch === 95) {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/**
 * Go's `strconv.ParseBool`.
 * @internal
 */
export function goParseBool(s: string): GoParse<boolean> {
  switch (s) {
    case '1':
    case 't':
    case 'T':
    case 'TRUE':
    case 'true':
    case 'True':
      return { ok: true, value: true };
    case '0':
    case 'f':
    case 'F':
    case 'FALSE':
    case 'false':
    case 'False':
      return { ok: true, value: false };
    default:
      return SYNTAX;
  }
}

/**
 * Go's `strconv.ParseInt(s, 0, 64)`: optional sign, base prefixes `0x`, `0o`, `0b`, a leading `0`
 * for octal, and `_` separators. The value is a bigint because int64 exceeds the safe integer range.
 * @internal
 */
export function goParseInt(s: string): GoParse<bigint> {
  if (s.length === 0) return SYNTAX;
  let neg = false;
  let body = s;
  if (body[0] === '+' || body[0] === '-') {
    neg = body[0] === '-';
    body = body.slice(1);
  }
  if (body.length === 0) return SYNTAX;
  let base = 10;
  let digits = body;
  if (body[0] === '0') {
    const p = body.length > 1 ? body.charCodeAt(1) | 32 : 0;
    if (p === 120) {
      base = 16;
      digits = body.slice(2);
    } else if (p === 111) {
      base = 8;
      digits = body.slice(2);
    } else if (p === 98) {
      base = 2;
      digits = body.slice(2);
    } else {
      base = 8;
      digits = body.slice(1);
      if (digits.length === 0) return { ok: true, value: 0n };
    }
  }
  let value = 0n;
  let sawDigit = false;
  let underscores = false;
  const big = BigInt(base);
  for (let i = 0; i < digits.length; i++) {
    const c = digits.charCodeAt(i);
    if (c === 95) {
      underscores = true;
      continue;
    }
    if (!isDigitIn(c, base)) return SYNTAX;
    sawDigit = true;
    value = value * big + BigInt(parseInt(digits[i] as string, base));
  }
  if (!sawDigit) return SYNTAX;
  if (underscores && !underscoreOK(s)) return SYNTAX;
  if (neg) value = -value;
  if (value > 9223372036854775807n || value < -9223372036854775808n) return RANGE;
  return { ok: true, value };
}

const DECIMAL_FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/;

/**
 * Go's `strconv.ParseFloat(s, 64)`: decimal and hexadecimal (with a `p` exponent) literals,
 * `_` separators, `inf`/`infinity`/`nan` in any case; overflow is a range error.
 * @internal
 */
export function goParseFloat(input: string): GoParse<number> {
  // Every literal starts (after a sign) with a digit, a point, or the i/n of inf and nan: most
  // filter values are words, refused here without the case folding and the patterns below.
  const first = input.charCodeAt(input.startsWith('+') || input.startsWith('-') ? 1 : 0);
  if (!(first >= 48 && first <= 57) && first !== 46 && (first | 32) !== 105 && (first | 32) !== 110) {
    return SYNTAX;
  }
  const lower = input.toLowerCase();
  switch (lower) {
    case 'nan':
      return { ok: true, value: Number.NaN };
    case 'inf':
    case '+inf':
    case 'infinity':
    case '+infinity':
      return { ok: true, value: Number.POSITIVE_INFINITY };
    case '-inf':
    case '-infinity':
      return { ok: true, value: Number.NEGATIVE_INFINITY };
    default:
      break;
  }
  let s = input;
  if (s.includes('_')) {
    if (!underscoreOK(s)) return SYNTAX;
    s = s.replaceAll('_', '');
  }
  if (DECIMAL_FLOAT.test(s)) {
    const value = Number(s);
    if (!Number.isFinite(value)) return RANGE;
    return { ok: true, value };
  }
  const hex = HEX_FLOAT.exec(s);
  if (hex !== null) {
    const intPart = hex[2] ?? '';
    const fracPart = hex[3] ?? '';
    if (intPart.length + fracPart.length === 0) return SYNTAX;
    const mantissa = BigInt('0x' + (intPart + fracPart || '0'));
    const exponent = Number(hex[4]) - 4 * fracPart.length;
    let value = bigTimesPow2(mantissa, exponent);
    if (!Number.isFinite(value)) return RANGE;
    if (hex[1] === '-') value = -value;
    return { ok: true, value };
  }
  return SYNTAX;
}

function bigTimesPow2(mantissa: bigint, exponent: number): number {
  if (mantissa === 0n) return 0;
  // Keep 64 significant bits, then let the FPU round once.
  const bits = mantissa.toString(2).length;
  let shift = 0;
  if (bits > 64) {
    shift = bits - 64;
    const dropped = mantissa & ((1n << BigInt(shift)) - 1n);
    mantissa >>= BigInt(shift);
    if (dropped !== 0n) mantissa |= 1n; // sticky bit
  }
  const e = exponent + shift;
  let value = Number(mantissa);
  // Apply the exponent in steps that stay exact (powers of two).
  let rest = e;
  while (rest > 0) {
    const step = Math.min(rest, 1000);
    value *= 2 ** step;
    rest -= step;
  }
  while (rest < 0) {
    const step = Math.max(rest, -1000);
    value *= 2 ** step;
    rest -= step;
  }
  return value;
}

function utf8Encode(codePoint: number, out: number[]): void {
  if (codePoint < 0x80) out.push(codePoint);
  else if (codePoint < 0x800) out.push(0xc0 | (codePoint >> 6), 0x80 | (codePoint & 63));
  else if (codePoint < 0x10000)
    out.push(0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 63), 0x80 | (codePoint & 63));
  else
    out.push(
      0xf0 | (codePoint >> 18),
      0x80 | ((codePoint >> 12) & 63),
      0x80 | ((codePoint >> 6) & 63),
      0x80 | (codePoint & 63),
    );
}

/**
 * Decodes UTF-8 bytes; each invalid byte becomes U+FFFD, as Go's JSON encoder would send it.
 * @internal
 */
export function utf8Decode(bytes: readonly number[]): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b0 = bytes[i] as number;
    if (b0 < 0x80) {
      out += String.fromCharCode(b0);
      i++;
      continue;
    }
    let need = 0;
    let cp = 0;
    let min = 0;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      need = 1;
      cp = b0 & 31;
      min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      cp = b0 & 15;
      min = 0x800;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      cp = b0 & 7;
      min = 0x10000;
    }
    let ok = need > 0 && i + need < bytes.length + 1;
    for (let k = 1; ok && k <= need; k++) {
      const b = bytes[i + k];
      if (b === undefined || (b & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (b & 63);
    }
    if (ok && cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)) {
      out += String.fromCodePoint(cp);
      i += need + 1;
    } else {
      out += '\uFFFD';
      i++;
    }
  }
  return out;
}

/** Result of {@link goUnquote}. @internal */
export type UnquoteResult =
  { readonly ok: true; readonly value: string } | { readonly ok: false; readonly reason: string };

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  a: 7,
  b: 8,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  '\\': 92,
  '"': 34,
};

/**
 * Go's `strconv.Unquote` for a complete literal: backtick strings lose their CR characters;
 * double-quoted strings accept Go escapes only and no raw newline.
 * @internal
 */
export function goUnquote(literal: string): UnquoteResult {
  if (literal.startsWith('`')) {
    return { ok: true, value: literal.slice(1, -1).replaceAll('\r', '') };
  }
  const body = literal.slice(1, -1);
  if (body.includes('\n')) return { ok: false, reason: 'a double-quoted string cannot contain a line break' };
  if (!body.includes('\\')) return { ok: true, value: body };
  const bytes: number[] = [];
  let i = 0;
  while (i < body.length) {
    const cp = body.codePointAt(i) as number;
    if (cp !== 92) {
      utf8Encode(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp, bytes);
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const esc = body[i + 1];
    if (esc === undefined) return { ok: false, reason: 'the string ends with a lone backslash' };
    const simple = SIMPLE_ESCAPES[esc];
    if (simple !== undefined) {
      bytes.push(simple);
      i += 2;
      continue;
    }
    if (esc === 'x' || esc === 'u' || esc === 'U') {
      const n = esc === 'x' ? 2 : esc === 'u' ? 4 : 8;
      const hex = body.slice(i + 2, i + 2 + n);
      if (hex.length !== n || !/^[0-9a-fA-F]+$/.test(hex)) {
        return { ok: false, reason: `the escape \\${esc} needs exactly ${n} hexadecimal digits` };
      }
      const v = parseInt(hex, 16);
      if (esc === 'x') bytes.push(v);
      else {
        if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
          return { ok: false, reason: `the escape \\${esc}${hex} is not a valid Unicode code point` };
        }
        utf8Encode(v, bytes);
      }
      i += 2 + n;
      continue;
    }
    if (esc >= '0' && esc <= '7') {
      const oct = body.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(oct)) return { ok: false, reason: 'an octal escape needs exactly 3 digits' };
      const v = parseInt(oct, 8);
      if (v > 255) return { ok: false, reason: `the octal escape \\${oct} is larger than 255` };
      bytes.push(v);
      i += 4;
      continue;
    }
    return { ok: false, reason: `the escape \\${esc} is not a Go string escape` };
  }
  return { ok: true, value: utf8Decode(bytes) };
}

/** The strict number-literal grammar of the filter language. @internal */
export const NUMBER_LITERAL: RegExp = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;
