import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  safeName,
  StorageUnavailable,
  type FileKind,
  type FileStore,
  type StorageConfig,
  type StoredFile,
} from './types.ts';

type S3Config = Extract<StorageConfig, { driver: 's3' }>;

/** What the store said, or that it could not be reached: a request's own trouble is not this. */
const fromStore = (error: unknown) =>
  error instanceof S3ServiceException ||
  ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE'].includes(
    (error as { code?: string }).code ?? '',
  ) ||
  ['TimeoutError', 'RequestTimeout'].includes((error as { name?: string }).name ?? '');
const unavailable = (what: string, error: unknown) =>
  new StorageUnavailable(
    `the S3 store could not ${what}: ${(error as { name?: string }).name ?? 'error'} ${(error as { code?: string }).code ?? ''}`.trim(),
    { cause: error },
  );

const notFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, R2…), keys `<prefix>/<kind>/<name>`.
 * Credentials come from the AWS SDK's usual chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY,
 * a profile, an instance role). Uploads go through lib-storage's Upload: a stream is sent in
 * 5 MB parts as it arrives, never held whole.
 */
export class S3FileStore implements FileStore {
  readonly driver = 's3' as const;
  readonly where: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(config: S3Config) {
    this.client = new S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      // a store that does not answer must not hold a request for minutes
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
      maxAttempts: 3,
    });
    this.bucket = config.bucket;
    this.prefix = config.prefix ? `${config.prefix}/` : '';
    this.where = `s3://${config.bucket}/${this.prefix}`;
  }

  private key(kind: FileKind, name: string): string {
    return `${this.prefix}${kind}/${safeName(name)}`;
  }

  async put(kind: FileKind, name: string, body: Buffer | Readable, contentType?: string): Promise<number> {
    let bytes = 0;
    let source: Buffer | Readable = body;
    if (Buffer.isBuffer(body)) bytes = body.length;
    else {
      // counted as it passes: the store is told nothing of the size in advance
      source = body.map((chunk: Buffer) => {
        bytes += chunk.length;
        return chunk;
      });
    }
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.key(kind, name),
        Body: source,
        ...(contentType ? { ContentType: contentType } : {}),
      },
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      throw fromStore(error) ? unavailable('store a file', error) : error;
    }
    return bytes;
  }

  async open(kind: FileKind, name: string): Promise<Readable | null> {
    try {
      const got = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(kind, name) }));
      return got.Body instanceof Readable ? got.Body : Readable.from(got.Body as AsyncIterable<Uint8Array>);
    } catch (error) {
      if (notFound(error)) return null;
      throw unavailable('read a file', error);
    }
  }

  async read(kind: FileKind, name: string): Promise<Buffer | null> {
    const stream = await this.open(kind, name);
    if (!stream) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }

  async stat(kind: FileKind, name: string): Promise<StoredFile | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(kind, name) }));
      return {
        name: safeName(name),
        bytes: Number(head.ContentLength ?? 0),
        modifiedMs: head.LastModified?.getTime() ?? 0,
      };
    } catch (error) {
      if (notFound(error)) return null;
      throw unavailable('look at a file', error);
    }
  }

  async remove(kind: FileKind, name: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(kind, name) }));
    } catch (error) {
      if (!notFound(error)) throw unavailable('remove a file', error);
    }
  }

  async *list(kind: FileKind): AsyncIterable<StoredFile> {
    const prefix = `${this.prefix}${kind}/`;
    let token: string | undefined;
    do {
      const page = await this.client
        .send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }))
        .catch((error: unknown) => {
          throw unavailable('list files', error);
        });
      for (const o of page.Contents ?? []) {
        const name = o.Key!.slice(prefix.length);
        // a deeper key is not one of ours
        if (!name || name.includes('/')) continue;
        yield { name, bytes: Number(o.Size ?? 0), modifiedMs: o.LastModified?.getTime() ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** The bucket is there and these credentials may use it (one HEAD: cheap enough for /readyz). */
  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}
