// npm run storage:migrate -- --to s3
// Copies every uploaded file from DATA_DIR/files to the S3 bucket of S3_BUCKET (S3_ENDPOINT,
// S3_REGION, S3_PREFIX, credentials from the usual AWS variables), verifying each by size and
// SHA-256; resumable (run it again after a cut: what is there already is checked, not copied).
// Then set STORAGE=s3 and restart. The local files are kept until you remove them.
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { createFileStore } from '../../shared/storage/index.ts';
import { migrateFiles } from '../../shared/storage/migrate.ts';
import { ConfigError, loadConfig } from '../config.ts';

const { values } = parseArgs({ options: { to: { type: 'string' } } });
if (values.to !== 's3') {
  console.error('Say where the files go: npm run storage:migrate -- --to s3');
  process.exit(2);
}

let config;
try {
  config = loadConfig({ ...process.env, STORAGE: 's3' });
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(2);
}
const from = createFileStore({ driver: 'local', dataDir: config.dataDir });
const to = createFileStore(config.storage);
try {
  await to.check();
} catch (error) {
  console.error(
    `The bucket cannot be reached: ${error instanceof Error ? error.name || error.message : String(error)}`,
  );
  process.exit(1);
}

console.log(`Copying the files of ${from.where} to ${to.where}`);
const bar = new cliProgress.SingleBar(
  {
    format: '{bar} {value}/{total} files | {percentage}% | {kind}',
    hideCursor: true,
    noTTYOutput: true,
    notTTYSchedule: 5_000,
  },
  cliProgress.Presets.shades_classic,
);
let started = false;
const result = await migrateFiles(from, to, ({ done, total, kind }) => {
  if (!started) {
    bar.start(total, 0, { kind });
    started = true;
  }
  bar.update(done, { kind });
});
if (started) bar.stop();
to.close();

console.log(
  `${result.total} files: ${result.copied} copied, ${result.alreadyThere} already there, ${result.failed.length} failed.`,
);
for (const f of result.failed) console.log(`  ${f.kind}/${f.name}: ${f.reason}`);
if (result.failed.length) {
  console.log('Run it again to retry the files that failed.');
  process.exit(1);
}
console.log('Every file is in the bucket and checked. Set STORAGE=s3 and restart.');
