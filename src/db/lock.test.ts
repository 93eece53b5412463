import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from './client.ts';

describe('the embedded database is one process’s alone', () => {
  it('refuses a folder another running process holds, and says which', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lock-'));
    // the parent of this test process is alive for as long as the test runs
    writeFileSync(path.join(dir, 'tripdesk.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${process.ppid}`);
  });

  it('takes over a lock left by a process that is gone (a kill -9), and lets go on close', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lock-'));
    writeFileSync(path.join(dir, 'tripdesk.lock'), '2147483646');
    const unlock = lockDataDir(dir);
    expect(readFileSync(path.join(dir, 'tripdesk.lock'), 'utf8')).toBe(String(process.pid));
    unlock();
    expect(existsSync(path.join(dir, 'tripdesk.lock'))).toBe(false);
  });
});
