/**
 * `svc history <did>`, `svc diff <did>` and `svc backup <dest>`: the embedded store from the
 * command line. better-sqlite3 loads only inside their actions (action.ts). Reading commands never create a
 * database: without one, the history is empty and a diff has nothing to compare.
 */
import type { Command } from 'commander';
import { DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT, MIN_HASH_PREFIX, SHOWN_HASH_PREFIX } from '../../../core/history/types.js';
import { completeFiles } from '../../cmdutil/completion.js';
import type { StoreCommandOptions } from './options.js';
import type { CliIo } from '../../cmdutil/io.js';
import { addOutputOptions } from '../../cmdutil/output-options.js';
import { addDbOption } from '../../cmdutil/store-options.js';

export function registerHistory(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const history = program
    .command('history')
    .description('List the recorded observations of a DID, newest first (every `svc resolve` records one)')
    .argument('<did>', 'the DID, raw or percent-encoded')
    .option('--limit <n>', `show at most n observations (1..${MAX_HISTORY_LIMIT}, default ${DEFAULT_HISTORY_LIMIT})`)
    .option('--log', 'did:webvh: print the log svc kept (JSON Lines as the host published them; re-verify with svc resolve --log)');
  addDbOption(history);
  addOutputOptions(history);
  history.addHelpText(
    'after',
    `
Each observation shows the start of its document hash: ${SHOWN_HASH_PREFIX} characters, more when the DID's
history needs them to tell two hashes apart. svc diff --from/--to accept it as it is.

--log prints the did:webvh log svc kept when it verified it (at most 1,000 entries, 4 MiB), so that
it stays checkable after its host deletes or rewrites it:
  $ svc history --log did:webvh:QmScid:example.com > kept.jsonl
  $ svc resolve did:webvh:QmScid:example.com --log kept.jsonl`,
  );
  history.action(async (did: string, options: StoreCommandOptions & { limit?: string; log?: boolean }) =>
    (await import('./action.js')).historyAction(io, setExit, did, options),
  );

  const diff = program
    .command('diff')
    .description('Compare two recorded observations of a DID: keys added, removed and rotated, relationships, services, binding')
    .argument('<did>', 'the DID, raw or percent-encoded')
    .option('--from <hash>', `document hash of the older observation, or its first ${MIN_HASH_PREFIX}+ characters (default: the second latest)`)
    .option('--to <hash>', `document hash of the newer observation, or its first ${MIN_HASH_PREFIX}+ characters (default: the latest)`)
    .addHelpText(
      'after',
      `
A hash may be shortened, as git abbreviates commits: any prefix of at least ${MIN_HASH_PREFIX} of its 64 hexadecimal
characters that no other document hash of the DID shares (svc history prints such prefixes). A prefix
two hashes share is refused, naming how many.

Exit status: 0 the documents are identical, 1 they differ, 2 a --from or --to that cannot be used
(shorter than ${MIN_HASH_PREFIX} characters, not hexadecimal, shared by two hashes: INVALID_OPTIONS), 4 nothing to
compare (fewer than two observations, a hash not observed).

Examples:
  $ svc diff did:web:example.com
  $ svc diff did:web:example.com --from 3f9a0c1e5b7d --to 8c21d4e09a6f --json`,
    );
  addDbOption(diff);
  addOutputOptions(diff);
  diff.action(async (did: string, options: StoreCommandOptions & { from?: string; to?: string }) =>
    (await import('./action.js')).diffAction(io, setExit, did, options),
  );

  const backup = program
    .command('backup')
    .description('Copy the SQLite database with online backup to a new file (never overwrites; mode 0600); PostgreSQL: use pg_dump')
    .argument('<dest>', 'destination file; must not exist');
  addDbOption(backup);
  completeFiles(backup, 'dest');
  backup
    .option('--json', 'print {source, destination, bytes, pages} as JSON')
    .option('-q, --quiet', 'print no report (errors still print); rely on the exit code');
  backup.addHelpText(
    'after',
    `
Exit status: 0 copied; 2 a usage error (<dest> exists or its directory does not, a PostgreSQL --db:
use pg_dump); 4 no database to back up, or the copy failed (BACKUP_FAILED, nothing left behind).

Example:
  $ svc backup ~/svc-$(date +%F).db`,
  );
  backup.action(async (dest: string, options: { db?: string; json?: boolean; quiet?: boolean }) =>
    (await import('./action.js')).backupAction(io, setExit, dest, options),
  );
}
