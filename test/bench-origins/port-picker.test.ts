import { createServer } from 'node:net';
import { PortPicker } from '../../bench/origins/free-port';

describe('PortPicker: the ports of one origin set', () => {
  test('are distinct across many picks, and each is bindable once released', async () => {
    const picker = new PortPicker();
    const ports: number[] = [];
    for (let i = 0; i < 400; i++) ports.push(await picker.pick('127.0.0.1'));
    expect(new Set(ports).size).toBe(ports.length);
    // While held, a port cannot be bound by anyone else.
    await expect(listen(ports[0]!)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await picker.release();
    const server = await listen(ports[0]!);
    await new Promise((r) => server.close(r));
  });
});

function listen(port: number): Promise<ReturnType<typeof createServer>> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
