import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import {
  checkpointText,
  noteKeyId,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  signNote,
  verifierKey,
} from './signed-note';

/**
 * The example of Go's golang.org/x/mod/sumdb/note documentation, the format's origin (c2sp.org/signed-note
 * describes the same): a verifier key and a note signed with it, made by another implementation.
 */
const GO_VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const GO_NOTE =
  'If you think cryptography is the answer to your problem,\n' +
  "then you don't know what your problem is.\n" +
  '\n' +
  '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';

const newKey = () => generateKeyPairSync('ed25519').privateKey;

describe('signed notes', () => {
  it('open the published example with its verifier key, whose key id is the one the spec derives', () => {
    const verifier = parseVerifierKey(GO_VKEY);
    expect(noteKeyId('PeterNeumann', verifier.key).toString('hex')).toBe('c74f20a3');
    expect(verifierKey('PeterNeumann', verifier.key)).toBe(GO_VKEY);
    expect(openNote(GO_NOTE, [verifier])).toEqual({
      text: GO_NOTE.slice(0, GO_NOTE.indexOf('\n\n') + 1),
      signers: ['PeterNeumann'],
    });
  });

  it('refuse the published example with one byte of its text or signature changed', () => {
    const verifier = parseVerifierKey(GO_VKEY);
    expect(() => openNote(GO_NOTE.replace('cryptography', 'cryptographY'), [verifier])).toThrow(
      'the signature of PeterNeumann does not verify',
    );
    expect(() => openNote(GO_NOTE.replace('nAM=', 'nAQ='), [verifier])).toThrow(
      'the signature of PeterNeumann does not verify',
    );
  });

  it('refuse a verifier key whose id is not derived from its name and key, or that is no Ed25519 key', () => {
    expect(() => parseVerifierKey(GO_VKEY.replace('c74f20a3', 'c74f20a4'))).toThrow(
      'the key id c74f20a4 is not the one derived from the name and key',
    );
    expect(() => parseVerifierKey(GO_VKEY.replace('+ARpc', '+AhRpc'))).toThrow('not an Ed25519 verifier key');
    expect(() => parseVerifierKey('Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW')).toThrow(
      'not a verifier key',
    );
  });

  it('sign any text so that it opens with the key and with no other key', () => {
    const key = newKey();
    const other = parseVerifierKey(verifierKey('example.com/log', newKey()));
    fc.assert(
      fc.property(
        fc.array(
          // eslint-disable-next-line no-control-regex -- a note's text holds no control character
          fc.string({ unit: 'grapheme' }).filter((line) => !/[\u0000-\u001f]/.test(line)),
          { minLength: 1, maxLength: 5 },
        ),
        (lines) => {
          const text = `${lines.join('\n')}\n`;
          const note = signNote(text, 'example.com/log', key);
          expect(openNote(note, [parseVerifierKey(verifierKey('example.com/log', key))])).toEqual({
            text,
            signers: ['example.com/log'],
          });
          expect(() => openNote(note, [other])).toThrow(/does not verify|no signature of a known key/);
        },
      ),
    );
  });
});

describe('checkpoints', () => {
  it('are the three lines of tlog-checkpoint, and parse back', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (size, root) => {
          const checkpoint = { origin: 'example.com/behind-the-sofa', size, root: Buffer.from(root) };
          expect(parseCheckpoint(checkpointText(checkpoint))).toEqual(checkpoint);
        },
      ),
    );
    expect(
      checkpointText({
        origin: 'example.com/behind-the-sofa',
        size: 20852163,
        root: Buffer.from('CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=', 'base64'),
      }),
    ).toBe('example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n');
  });

  it.each([
    ['no size', 'example.com/log\n\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n'],
    ['a leading zero', 'example.com/log\n012\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n'],
    ['a short root', 'example.com/log\n12\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2=\n'],
    ['an empty extension line', 'example.com/log\n12\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n'],
  ])('refuse a body with %s', (_, text) => {
    expect(() => parseCheckpoint(text)).toThrow();
  });
});
