import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../support/service-process';

/** Starts on a 2-core machine shared by eight test runs took up to three minutes. */
const STARTUP_LIMIT_MS = 180_000;

/** This machine's first address other than loopback: where another machine would reach the service. */
const outward = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** HOST chooses the interface; the start names the URL to open. */
(outward ? describe : describe.skip)('the service listens', () => {
  let dataDir: string;
  let service: ServiceProcess | undefined;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'crcs-listen-'));
  });

  afterEach(async () => {
    await service?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('on every interface by default, and prints the URL to open on this machine', async () => {
    service = await ServiceProcess.start({
      env: { DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      startupLimitMs: STARTUP_LIMIT_MS,
    });
    const origin = `http://localhost:${service.port}`;
    expect(service.output).toContain(
      `listening on ${origin}/api/v1 (the portal: ${origin}/portal/), on every interface`,
    );
    expect(await reachable(outward!, service.port)).toBe(true);
  }, 400_000);

  it('on HOST only when it is set', async () => {
    service = await ServiceProcess.start({
      env: { DATA_DIR: dataDir, LOG_LEVEL: 'info', HOST: '127.0.0.1' },
      startupLimitMs: STARTUP_LIMIT_MS,
    });
    const origin = `http://127.0.0.1:${service.port}`;
    expect(service.output).toContain(
      `listening on ${origin}/api/v1 (the portal: ${origin}/portal/), on 127.0.0.1 only`,
    );
    expect(await reachable('127.0.0.1', service.port)).toBe(true);
    expect(await reachable(outward!, service.port)).toBe(false);
  }, 400_000);
});
