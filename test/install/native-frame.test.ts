import { encodeFrame, readFrame } from '../../native-host/install/native-frame';

describe('reading a host frame the way a browser does', () => {
  test('a 4-byte little-endian length, then UTF-8 JSON', () => {
    const f = encodeFrame({ type: 'hello', id: 'é' });
    expect(f.readUInt32LE(0)).toBe(f.length - 4);
    expect(readFrame(f)).toEqual({ kind: 'frame', message: { type: 'hello', id: 'é' }, size: f.length - 4 });
  });

  test('waits for the rest of a frame split anywhere, the length prefix included', () => {
    const f = encodeFrame({ a: 1 });
    for (let cut = 0; cut < f.length; cut++) expect(readFrame(f.subarray(0, cut))).toEqual({ kind: 'need-more' });
  });

  test.each([
    [Buffer.from('Listening on 127.0.0.1\n'), /would announce a \d+-byte message, over the 1 MiB limit; it starts "Listening on/],
    [Buffer.from([0, 0, 0, 0, 0x7b]), /zero length/],
    [Buffer.concat([Buffer.from([3, 0, 0, 0]), Buffer.from('{no')]), /3-byte body is not JSON: "\{no"/],
  ])('%j is not a frame', (bytes, reason) => {
    const r = readFrame(bytes);
    expect(r).toEqual({ kind: 'not-a-frame', reason: expect.stringMatching(reason) });
  });
});
