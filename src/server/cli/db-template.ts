import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { embeddedTemplateFile } from '../../db/template.ts';
import { writeEmbeddedTemplate } from '../ops/db-template.ts';

// Run by `npm install` (prepare): a migrated embedded database for the first `npm start` to copy.
// Without it the server still starts, only slower, so a failure here warns and does not fail the install.
try {
  const file = embeddedTemplateFile();
  if (!existsSync(file)) {
    const started = Date.now();
    await writeEmbeddedTemplate(file);
    // the templates of older migrations are of no further use
    for (const old of readdirSync(path.dirname(file))) {
      if (old.startsWith('pglite-') && old !== path.basename(file))
        rmSync(path.join(path.dirname(file), old), { force: true });
    }
    console.log(`Made the embedded database's template (${Date.now() - started} ms).`);
  }
} catch (error) {
  console.warn(
    "Could not make the embedded database's template; the first start will take longer:",
    error instanceof Error ? error.message : error,
  );
}
