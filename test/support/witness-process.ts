import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { childEnv } from './child-env';

const ROOT = join(__dirname, '../..');

/** `npm run witness` as its own process (what an auditor runs on a machine of their own), with its output kept for assertions. */
export class WitnessProcess {
  output = '';
  private exited: Promise<number>;

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly vkey: string,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  /**
   * Starts it on `listen` (by default a free port of loopback; a witness started again where it
   * listened before comes back at the URL a policy names); one that refuses to start rejects with
   * its exit code and output. `script`: the witness to run, by default the log package's built bin
   * in this checkout (`npm run witness`); another is one installed elsewhere.
   */
  static start(
    state: string,
    logVkeys: string[],
    name = 'witness.example/w1',
    listen = '127.0.0.1:0',
    script = 'packages/tlog/dist/bin/witness.js',
  ): Promise<WitnessProcess> {
    const child = spawn(
      process.execPath,
      [script, '--state', state, '--name', name, '--listen', listen, ...logVkeys.flatMap((vkey) => ['--log', vkey])],
      { cwd: ROOT, env: childEnv({ NODE_OPTIONS: '' }), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    return new Promise((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const url = /listening on (\S+)\n/.exec(out)?.[1];
        const vkey = /witness vkey: (\S+)\n/.exec(out)?.[1];
        if (url && vkey) resolve(new WitnessProcess(child, url, vkey));
      });
      child.once('exit', (code) => reject(new WitnessStartError(code ?? -1, err)));
    });
  }

  async stop(): Promise<void> {
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

export class WitnessStartError extends Error {
  constructor(
    readonly code: number,
    readonly stderr: string,
  ) {
    super(`the witness exited with ${code}: ${stderr}`);
  }
}
