#!/usr/bin/env node
import { createPrivateKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { access, mkdir, open, readFile, rename } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { canonicalJson } from '../entry-hash';
import { cosign, cosignerKey } from '../cosignature';
import { isValidKeyName, parseVerifierKey, type NoteVerifier } from '../signed-note';
import { TLOG_SIZE, judgeCheckpoint, type WitnessedTree } from '../tlog-witness';

/*
 * `npm run witness`: a transparency-log witness (c2sp.org/tlog-witness) for any number of logs,
 * known by their verifier keys. It cosigns (c2sp.org/tlog-cosignature) a checkpoint only when it
 * extends the last one it cosigned for that log, so a log that was rolled back, cut or rewritten,
 * even one re-signed with the log's own key, gets no cosignature from it. Run by whoever must not
 * have to trust the log's operator (a regulator, a franchisor, an auditing firm), on a machine that
 * operator does not control: see README, "For auditors".
 */

const USAGE = [
  'usage: witness --state <folder> --log <log vkey> [--log <log vkey>]... [--logs <file of vkeys>] [--name <witness name>] [--listen <host:port>]',
  '  --state   where its key (witness-key.pem) and its state (state.json) are kept; made at the first start',
  '  --name    the witness key name, at the first start (default: witness.invalid/<random id>); kept with the key',
  '  --listen  default 127.0.0.1:7380; port 0 takes a free one',
].join('\n');

const KEY_FILE = 'witness-key.pem';
const STATE_FILE = 'state.json';
const MAX_BODY = 64 * 1024;

class StartError extends Error {}

/** What the witness last cosigned of each log, signed with its own key, so that an edit of the file (by hand, by a script, by a disk) is found. */
interface StateFile {
  witness: string;
  logs: Record<string, { size: number; root: string }>;
  signature: string;
}

const statement = (witness: string, logs: StateFile['logs']) => Buffer.from(canonicalJson({ witness, logs }));

/**
 * The witness's durable state: read and checked at start and before every change, written whole
 * to a temporary file that is flushed, renamed over the old one, and its folder flushed, so that a
 * crash leaves the old state or the new one, never half of one. A state that does not verify is
 * never replaced by an empty one: the witness stops (at start) or refuses (500) until its operator
 * restores it.
 */
class WitnessState {
  private logs: StateFile['logs'] = {};
  /** One change at a time: the spec requires checking `old` and recording the new size atomically. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly folder: string,
    readonly name: string,
    private readonly key: KeyObject,
  ) {}

  get path(): string {
    return join(this.folder, STATE_FILE);
  }

  async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new StartError(`the witness state ${this.path} cannot be read: ${(error as Error).message}`);
      throw new StartError(
        `the witness state ${this.path} is missing, but the witness key beside it exists: it was deleted or moved. Restore it; the witness will not start afresh`,
      );
    }
    let file: StateFile;
    try {
      file = JSON.parse(text) as StateFile;
    } catch {
      throw new StartError(`the witness state ${this.path} is not JSON: it was torn or edited`);
    }
    if (
      file.witness !== this.name ||
      typeof file.signature !== 'string' ||
      !verify(null, statement(file.witness, file.logs), this.key, Buffer.from(file.signature, 'base64'))
    ) {
      throw new StartError(
        `the witness state ${this.path} does not carry the witness's own signature: it was edited outside the witness. Restore it from a backup; the witness will not start afresh`,
      );
    }
    this.logs = file.logs;
  }

  last(origin: string): WitnessedTree | undefined {
    const log = this.logs[origin];
    return log && { size: log.size, root: Buffer.from(log.root, 'base64') };
  }

  /** Runs `task` alone, with the state re-read and checked first: an edit made while the witness runs is found at the next request. */
  inTurn<T>(task: () => Promise<T>): Promise<T> {
    const done = this.turn.then(async () => {
      await this.load();
      return task();
    });
    this.turn = done.catch(() => undefined);
    return done;
  }

  async record(origin: string, tree: WitnessedTree): Promise<void> {
    const logs = { ...this.logs, [origin]: { size: tree.size, root: tree.root.toString('base64') } };
    await this.write(logs);
    this.logs = logs;
  }

  /** The first state, of no log; only beside a key just made. */
  async create(): Promise<void> {
    await this.write({});
  }

  /** The cosignature line of `name` on the checkpoint text, now. */
  cosign(text: string): string {
    return cosign(text, this.name, this.key, Math.floor(Date.now() / 1000));
  }

  get vkey(): string {
    return cosignerKey(this.name, this.key);
  }

  private async write(logs: StateFile['logs']): Promise<void> {
    const file: StateFile = {
      witness: this.name,
      logs,
      signature: sign(null, statement(this.name, logs), this.key).toString('base64'),
    };
    const temporary = `${this.path}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(file, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.path);
    const folder = await open(this.folder, 'r');
    await folder.sync().finally(() => folder.close());
  }
}

/** The witness key, made at the first start with the state beside it; its name is kept in the key file's first line. */
async function openWitness(folder: string, name: string | undefined): Promise<WitnessState> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const keyPath = join(folder, KEY_FILE);
  let text: string | undefined;
  try {
    text = await readFile(keyPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new StartError(`the witness key ${keyPath} cannot be read: ${(error as Error).message}`);
  }
  if (text === undefined) {
    if (
      await access(join(folder, STATE_FILE)).then(
        () => true,
        () => false,
      )
    ) {
      throw new StartError(
        `the witness key ${keyPath} is missing, but a witness state is beside it: a new key would cosign what the old one refused. Restore the key`,
      );
    }
    const chosen = name ?? `witness.invalid/${Math.random().toString(36).slice(2, 10)}`;
    if (!isValidKeyName(chosen)) throw new StartError(`--name ${chosen}: a key name has no spaces and no plus sign`);
    const { privateKey } = generateKeyPairSync('ed25519');
    const handle = await open(keyPath, 'wx', 0o600);
    await handle.writeFile(`# ${chosen}\n${privateKey.export({ format: 'pem', type: 'pkcs8' }) as string}`);
    await handle.sync();
    await handle.close();
    const state = new WitnessState(folder, chosen, privateKey);
    await state.create();
    return state;
  }
  const [first, ...pem] = text.split('\n');
  const stored = first.replace(/^# /, '');
  if (name !== undefined && name !== stored)
    throw new StartError(`--name ${name}: this witness's key is named ${stored}; a witness keeps its name`);
  const state = new WitnessState(folder, stored, createPrivateKey(pem.join('\n')));
  await state.load();
  return state;
}

function parseArgs(args: string[]): {
  state: string;
  logs: NoteVerifier[];
  name?: string;
  host: string;
  port: number;
  logFiles: string[];
} {
  const logs: NoteVerifier[] = [];
  const logFiles: string[] = [];
  let state: string | undefined;
  let name: string | undefined;
  let listen = '127.0.0.1:7380';
  for (let i = 0; i < args.length; i++) {
    const value = args[i + 1];
    if (value === undefined) throw new StartError(USAGE);
    if (args[i] === '--state') state = value;
    else if (args[i] === '--name') name = value;
    else if (args[i] === '--listen') listen = value;
    else if (args[i] === '--logs') logFiles.push(value);
    else if (args[i] === '--log') logs.push(logKey(value, '--log'));
    else throw new StartError(`unknown option ${args[i]}\n${USAGE}`);
    i += 1;
  }
  const match = /^(.+):(\d+)$/.exec(listen);
  if (!state || !match) throw new StartError(USAGE);
  return {
    state: resolve(process.env.INIT_CWD ?? '.', state),
    logs,
    name,
    host: match[1],
    port: Number(match[2]),
    logFiles,
  };
}

function logKey(vkey: string, where: string): NoteVerifier {
  try {
    return parseVerifierKey(vkey);
  } catch (error) {
    throw new StartError(`${where}: ${(error as Error).message}`);
  }
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    request.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length <= MAX_BODY) chunks.push(chunk);
    });
    request.on('end', () => resolveBody(length > MAX_BODY ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function answer(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  for (const file of args.logFiles) {
    const text = await readFile(resolve(process.env.INIT_CWD ?? '.', file), 'utf8');
    text.split('\n').forEach((line, i) => {
      if (line.trim() !== '' && !line.trim().startsWith('#'))
        args.logs.push(logKey(line.trim(), `${file} line ${i + 1}`));
    });
  }
  if (args.logs.length === 0) throw new StartError(`no log to witness: give --log or --logs\n${USAGE}`);
  const state = await openWitness(args.state, args.name);

  const server = createServer((request, response) => {
    void (async () => {
      if (request.url !== '/add-checkpoint')
        return answer(
          response,
          404,
          'text/plain; charset=utf-8',
          'not found: this witness serves POST /add-checkpoint\n',
        );
      if (request.method !== 'POST')
        return answer(response, 405, 'text/plain; charset=utf-8', 'add-checkpoint is a POST\n');
      const body = await readBody(request);
      if (body === undefined)
        return answer(response, 413, 'text/plain; charset=utf-8', `the body is larger than ${MAX_BODY} bytes\n`);
      try {
        await state.inTurn(async () => {
          const judged = judgeCheckpoint(body, args.logs, (origin) => state.last(origin));
          if ('status' in judged) {
            // A refusal of a well-signed checkpoint may be the proof of a log's misbehaviour: it is kept in this witness's own log.
            if (judged.status === 422 || (judged.status === 409 && judged.contentType !== TLOG_SIZE))
              process.stderr.write(`REFUSED (${judged.status}): ${judged.body.trim()}\n--- request ---\n${body}---\n`);
            return answer(response, judged.status, judged.contentType, judged.body);
          }
          await state.record(judged.checkpoint.origin, judged.checkpoint);
          answer(response, 200, 'text/plain; charset=utf-8', state.cosign(judged.text));
        });
      } catch (error) {
        const message =
          error instanceof StartError
            ? error.message
            : `the witness could not record its state: ${(error as Error).message}`;
        process.stderr.write(`ERROR: ${message}\n`);
        answer(response, 500, 'text/plain; charset=utf-8', `${message}\n`);
      }
    })();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(args.port, args.host, ready);
  });
  const address = server.address() as { address: string; port: number };
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  process.stdout.write(
    `witness vkey: ${state.vkey}\nwitnessing: ${args.logs.map((log) => log.name).join(', ')}\nlistening on http://${host}:${address.port}\n`,
  );
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: Error) => {
  process.stderr.write(`${error instanceof StartError ? 'REFUSED TO START: ' : ''}${error.message}\n`);
  process.exit(error instanceof StartError ? 2 : 1);
});
