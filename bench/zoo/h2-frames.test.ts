import { heldStreams, parseTsharkFrames } from './h2-frames';

/**
 * tshark's fields for a lighttpd 1.4.69 revisit traced by zoo-h2-trace.js (the static origin's
 * connection 23 and the fonts origin's 24, trimmed): stream 5 (an 88,000-byte script) held after
 * 65,500 bytes until the client's PING.
 */
const SAMPLE = [
  '1.201092000\t23\t198.18.0.1\t59284\t4,8,1,1,1,1\t0,0,1,3,5,7\t12,4,87,28,27,23\t1,1,1,1',
  '1.204526000\t24\t198.18.0.1\t43556\t4,8,1,1,1,1\t0,0,1,3,5,7\t12,4,87,36,27,27\t1,1,1,1',
  '1.299650000\t23\t198.19.0.2\t443\t4,8\t0,0\t30,4\t',
  '1.306989000\t23\t198.18.0.1\t59284\t4\t0\t0\t',
  '1.401780000\t23\t198.19.0.2\t443\t4,1\t0,1\t0,107\t0',
  '1.402566000\t23\t198.19.0.2\t443\t0,0,0,1\t1,1,1,3\t16375,9625,0,24\t0,0,1,0',
  '1.405132000\t24\t198.19.0.3\t443\t4,1,0,0\t0,1,1,1\t0,106,2400,0\t0,0,1',
  '1.502044000\t23\t198.19.0.2\t443\t0,0,1\t3,3,5\t9000,0,37\t0,1,0',
  '1.502104000\t23\t198.19.0.2\t443\t0\t5\t16375\t0',
  '1.502775000\t23\t198.19.0.2\t443\t0,1\t5,7\t16375,25\t0,0',
  '1.602369000\t23\t198.19.0.2\t443\t0\t7\t16375\t0',
  '1.602409000\t23\t198.19.0.2\t443\t0\t7\t16375\t0',
  '1.602527000\t23\t198.19.0.2\t443\t0\t5\t16375\t0',
  '1.602793000\t23\t198.19.0.2\t443\t0\t5\t16375\t0',
  '1.605326000\t23\t198.19.0.2\t443\t0,0,0\t7,7,7\t16375,11875,0\t0,0,1',
  '1.889120000\t23\t198.18.0.1\t59284\t6\t0\t8\t',
  '1.989812000\t23\t198.19.0.2\t443\t6\t0\t8\t',
  '1.989853000\t23\t198.19.0.2\t443\t0,0,0\t5,5,5\t16375,6125,0\t0,0,1',
].join('\n');

describe('HTTP/2 frames from tshark', () => {
  test('END_STREAM is read over DATA and HEADERS only; each connection is named by its server', () => {
    const { frames } = parseTsharkFrames(SAMPLE);
    const settingsThenHeaders = frames.filter((f) => f.tMs === 1401.78);
    expect(settingsThenHeaders.map((f) => [f.type, f.stream, f.endStream])).toEqual([[4, 0, false], [1, 1, false]]);
    const fonts = frames.filter((f) => f.tMs === 1405.132);
    expect(fonts.map((f) => [f.type, f.stream, f.length, f.endStream])).toEqual([[4, 0, 0, false], [1, 1, 106, false], [0, 1, 2400, false], [0, 1, 0, true]]);
    expect(new Set(frames.filter((f) => f.conn === 23).map((f) => f.server))).toEqual(new Set(['198.19.0.2']));
    expect(frames.filter((f) => f.stream === 5 && f.type === 0).reduce((n, f) => n + f.length, 0)).toBe(88_000);
  });

  test('the held stream: its bytes before the hold, how long, and the client PING it resumed after', () => {
    expect(heldStreams(parseTsharkFrames(SAMPLE), 200)).toEqual([
      { server: '198.19.0.2', conn: 23, stream: 5, heldAtMs: 1602.793, bytesBefore: 65_500, holdMs: expect.closeTo(387.06, 2), resumed: true, lastClientFrame: { type: 'PING', beforeResumeMs: expect.closeTo(100.733, 2) } },
    ]);
  });

  test('a stream that never resumes is held to the last packet captured, HTTP/2 or not', () => {
    // No PING: the client's FIN, a packet without HTTP/2, at the idle timeout.
    const unanswered = [...SAMPLE.split('\n').filter((l) => !l.startsWith('1.88') && !l.startsWith('1.98')), '6.582585000\t23\t198.18.0.1\t59284\t\t\t\t'].join('\n');
    expect(heldStreams(parseTsharkFrames(unanswered), 200)).toEqual([
      { server: '198.19.0.2', conn: 23, stream: 5, heldAtMs: 1602.793, bytesBefore: 65_500, holdMs: expect.closeTo(4979.792, 2), resumed: false, lastClientFrame: null },
    ]);
  });

  test('gaps shorter than the hold are not holds', () => {
    expect(heldStreams(parseTsharkFrames(SAMPLE), 400)).toEqual([]);
  });
});
