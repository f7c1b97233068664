import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { requirePeeringToken } from './checks.js';

// The token check decodes base64 with atob and UTF-8 with TextDecoder (no Buffer: the client runs
// in browsers too); its answer must be Node's Buffer decoding's, on any text.
const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

describe('requirePeeringToken', () => {
  test.prop([fc.dictionary(fc.string({ unit: 'grapheme' }), fc.jsonValue())])(
    'accepts base64 of any JSON object, whatever characters it holds',
    (object) => {
      const token = base64(JSON.stringify(object));
      expect(requirePeeringToken(token, 'PeeringToken')).toBe(token);
    },
  );

  test.prop([fc.string({ unit: 'grapheme', minLength: 1 })])(
    'refuses base64 of text that is not a JSON object, naming why and never quoting it',
    (text) => {
      let isObject = false;
      try {
        const parsed = JSON.parse(text) as unknown;
        isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
      } catch {
        isObject = false;
      }
      fc.pre(!isObject);
      const token = base64(text);
      expect(() => requirePeeringToken(token, 'PeeringToken')).toThrow(
        /^PeeringToken (is base64 but not of JSON|does not hold a JSON object)/,
      );
      try {
        requirePeeringToken(token, 'PeeringToken');
      } catch (error) {
        expect(String((error as Error).message)).not.toContain(token);
      }
    },
  );
});
