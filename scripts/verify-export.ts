#!/usr/bin/env node
import { createReadStream, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import Papa from 'papaparse';
import { fromExportLine } from '@crcs/tlog';
import type { StoredEvent } from '../src/platform/event-store/event-store.port';
// The projector's own module, not the transactions module's index: that loads NestJS, a third of a second of start-up.
import { transactionListProjector } from '../src/transactions/read-model/transaction-list.projector';
import { foldTransactions } from '../src/transactions/read-model/transaction-view';
import { checkExport, type ExportCheck } from '../src/export/export-transactions/export-check';

const USAGE = 'usage: verify-export <transactions.csv> --log <export.ndjson> [--as-of <instant>]';

class InputError extends Error {}

/** `npm run` works in the package's folder: a path is the caller's, relative to where npm was run (INIT_CWD). */
const fromCaller = (path: string): string => resolve(process.env.INIT_CWD ?? '.', path);

/**
 * `npm run verify-export`: recomputes every row of a CSV export (`GET /export/transactions`, any
 * mode) from the transaction events of an export of the log and names each cell that differs;
 * `--as-of` (the instant the CSV was made) leaves out the entries recorded after it, so a sale
 * refunded since is compared as it then stood. The service's own tool, not the log package's
 * (packages/tlog): a row is the service's transaction rules applied to the log. The log itself is
 * checked by verifying its export (`verify-chain`).
 *
 * Prints the result as JSON on stdout and a summary on stderr. Exit status: 0 when every cell is
 * the log's, 1 when any differs, 2 when the input could not be read.
 */
async function main(args: string[]): Promise<number> {
  let logFile: string | undefined;
  let asOf: number | undefined;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--log' && i + 1 < args.length) logFile = fromCaller(args[++i]);
    else if (args[i] === '--as-of' && i + 1 < args.length) {
      asOf = Date.parse(args[++i]);
      if (Number.isNaN(asOf)) throw new InputError(`--as-of ${args[i]}: not an instant (say 2026-11-21T18:00:00Z)`);
    } else if (!args[i].startsWith('-')) files.push(fromCaller(args[i]));
    else throw new InputError(`unknown option ${args[i]}\n${USAGE}`);
  }
  if (files.length !== 1 || logFile === undefined) throw new InputError(USAGE);
  const events = await transactionEvents(logFile, asOf);
  const transactions = new Map(
    [...foldTransactions(events)].map(([id, row]) => [id, { ...row.detail, history: row.history }]),
  );
  let text: string;
  try {
    text = readFileSync(files[0], 'utf8');
  } catch (error) {
    throw new InputError(`${files[0]}: ${(error as Error).message}`);
  }
  const csv = Papa.parse<string[]>(text, { skipEmptyLines: true });
  if (csv.errors.length > 0)
    throw new InputError(`${files[0]}: row ${(csv.errors[0].row ?? 0) + 1}: ${csv.errors[0].message}`);
  let result: ExportCheck;
  try {
    result = checkExport(csv.data, transactions);
  } catch (error) {
    throw new InputError(`${files[0]}: ${(error as Error).message}`);
  }
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  const shown = result.differences
    .slice(0, 20)
    .map((d) =>
      d.from_log === null && d.field === 'transaction_id'
        ? `  row ${d.row}: transaction ${d.transaction_id} is not in the log`
        : `  row ${d.row} (${d.transaction_id}), ${d.field}: exported ${JSON.stringify(d.exported)}, from the log ${d.from_log === null ? 'no such column' : JSON.stringify(d.from_log)}`,
    );
  process.stderr.write(
    result.difference_count === 0
      ? `OK: ${result.row_count} rows, every cell as the log's ${transactions.size} transactions give it\n`
      : `DIFFERENT: ${result.difference_count} cells in ${result.row_count} rows are not what the log says\n${shown.join('\n')}\n`,
  );
  return result.difference_count === 0 ? 0 : 1;
}

/** The transaction events of an export of the log, recorded at or before `asOf`, in the log's order. */
async function transactionEvents(file: string, asOf: number | undefined): Promise<StoredEvent[]> {
  const handled = new Set(transactionListProjector.handles);
  const events: StoredEvent[] = [];
  const input = createReadStream(file);
  let line = 0;
  try {
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
      line += 1;
      if (text.trim() === '') continue;
      // An entry of the service's log: its metadata is the service's (EventMetadata).
      const event = fromExportLine(text) as StoredEvent;
      if (handled.has(event.type) && (asOf === undefined || Date.parse(event.recordedAt) <= asOf)) events.push(event);
    }
  } catch (error) {
    throw new InputError(`${file}: ${line > 0 ? `line ${line}: ` : ''}${(error as Error).message}`);
  }
  return events.sort((a, b) => a.position - b.position);
}

main(process.argv.slice(2)).then(
  (status) => (process.exitCode = status),
  (error: unknown) => {
    process.stderr.write(`verify-export: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
