import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
// s3rver: a real S3-protocol server in this process, files in a temporary folder (DESIGN.md)
import S3rver from 's3rver';
import type { StorageConfig } from '../../src/shared/storage/index.ts';

export type S3Server = { storage: Extract<StorageConfig, { driver: 's3' }>; close(): Promise<void> };

/**
 * Starts an S3-protocol server on a free port with an empty bucket, and sets the AWS variables
 * the SDK's credential chain reads (s3rver's own key pair), as an operator's environment would.
 */
export async function startS3(bucket = 'tripdesk-test'): Promise<S3Server> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = (await server.run()) as { port: number };
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  return {
    storage: {
      driver: 's3',
      bucket,
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      prefix: '',
    },
    close: async () => {
      (server as unknown as { httpServer: Server }).httpServer.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
