import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { unstorableTextErrors } from '../contract/common.ts';
import { newFileName, StorageUnavailable, type FileKind, type FileStore } from '../shared/storage/index.ts';
import { HttpError, validationError } from './errors.ts';

/** What a file's first bytes were found to be; `rest`, when given, checks every later chunk as it passes (and the end, with null). */
export type Accepted = { ext: string; mime: string; rest?: (chunk: Buffer | null) => boolean };

/** A file already in storage under a new name; the route or service that refuses it must `discard` it. */
export type StoredUpload = { filename: string; name: string; bytes: number; ext: string; mime: string };
export type Upload = { fields: Record<string, string>; file: StoredUpload | null; discard: () => Promise<void> };

const MB = 1024 * 1024;
/** Enough of a file to tell what it is: file-type needs 4,100 bytes; an Office file's zip entries can need a few dozen kilobytes. */
export const HEAD_BYTES = 64 * 1024;

/**
 * Reads a multipart request holding one file (in `fileField`) and plain fields. The file is
 * never held whole: its first bytes are checked by `accept` (the feature's rule for what it
 * takes), and only then is it streamed to storage under a name of the server's own, counted as
 * it goes. A file over `maxBytes`, or one refused, is a field error (not a 413) and leaves
 * nothing stored. An empty file part is no file.
 */
export async function readUpload(
  request: FastifyRequest,
  opts: {
    fileField: string;
    label: string;
    maxBytes: number;
    files: FileStore;
    kind: FileKind;
    accept: (head: Buffer, filename: string) => Promise<Accepted | null>;
    /** the field error when `accept` refuses the file */
    refused: string;
  },
): Promise<Upload> {
  if (!request.isMultipart()) throw validationError({ [opts.fileField]: [`The ${opts.label} must be a file.`] });
  const fields: Record<string, string> = {};
  let file: StoredUpload | null = null;
  let nameErrors: Record<string, string[]> = {};
  const discard = async () => {
    if (file) await opts.files.remove(opts.kind, file.name).catch(() => undefined);
  };
  const tooLarge = () =>
    validationError({
      [opts.fileField]: [`The ${opts.label} must not be greater than ${Math.round(opts.maxBytes / MB)} MB.`],
    });
  try {
    for await (const part of request.parts({
      limits: { fileSize: opts.maxBytes, files: 1, fields: 20, fieldSize: 10_000 },
    })) {
      if (part.type !== 'file') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== opts.fileField) {
        part.file.resume();
        continue;
      }
      // a file name that cannot be kept: the file is not stored, and the error is told with the fields'
      const badName = unstorableTextErrors({ [opts.fileField]: part.filename });
      if (Object.keys(badName).length) {
        nameErrors = badName;
        part.file.resume();
        continue;
      }
      const chunks = part.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      // the rest of a refused file is read and dropped (at most the size limit): left unread, the
      // request would never end, and the next request on its connection never be answered
      // (resume() does nothing once an iterator reads the stream)
      const drain = async () => {
        try {
          for (let next = await chunks.next(); !next.done; next = await chunks.next());
        } catch {
          // the request broke off: nothing more to read
        }
      };
      // an error of the request's own stream (a client gone mid-upload), told apart from the store's
      let sourceFailed = false;
      const nextChunk = async () => {
        try {
          return await chunks.next();
        } catch (error) {
          sourceFailed = true;
          throw error;
        }
      };
      // the head, to be checked before anything is stored
      const headParts: Buffer[] = [];
      let headLength = 0;
      let ended = false;
      while (headLength < HEAD_BYTES) {
        const next = await nextChunk();
        if (next.done) {
          ended = true;
          break;
        }
        headParts.push(next.value);
        headLength += next.value.length;
      }
      const head = Buffer.concat(headParts);
      if (part.file.truncated) throw tooLarge();
      if (head.length === 0) continue;
      const accepted = await opts.accept(head, part.filename);
      if (!accepted) {
        await drain();
        throw validationError({ [opts.fileField]: [opts.refused] });
      }
      let refusedLater = false;
      const body = Readable.from(
        (async function* () {
          yield head;
          if (!ended) {
            for (let next = await nextChunk(); !next.done; next = await nextChunk()) {
              if (accepted.rest && !accepted.rest(next.value)) {
                refusedLater = true;
                throw new Error('refused');
              }
              yield next.value;
            }
          }
          if (accepted.rest && !accepted.rest(null)) {
            refusedLater = true;
            throw new Error('refused');
          }
        })(),
      );
      const name = newFileName(accepted.ext);
      try {
        const bytes = await opts.files.put(opts.kind, name, body, accepted.mime);
        file = { filename: part.filename, name, bytes, ext: accepted.ext, mime: accepted.mime };
      } catch (error) {
        await opts.files.remove(opts.kind, name).catch(() => undefined);
        if (sourceFailed) throw new HttpError(400, 'The upload did not arrive whole. Please try again.');
        await drain();
        if (part.file.truncated) throw tooLarge();
        if (refusedLater) throw validationError({ [opts.fileField]: [opts.refused] });
        throw error;
      }
      if (part.file.truncated) {
        await discard();
        throw tooLarge();
      }
    }
  } catch (error) {
    await discard();
    if (error instanceof HttpError || error instanceof StorageUnavailable) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_FILES_LIMIT') throw validationError({ [opts.fileField]: [`Send one ${opts.label} at a time.`] });
    // anything else here is the request itself breaking off (a closed tab, a lost connection)
    throw new HttpError(400, 'The upload did not arrive whole. Please try again.');
  }
  const unstorable = { ...unstorableTextErrors(fields), ...nameErrors };
  if (Object.keys(unstorable).length) {
    await discard();
    throw validationError(unstorable);
  }
  return { fields, file, discard };
}

export type ImageKind = { ext: 'png' | 'jpg'; mime: 'image/png' | 'image/jpeg' };

/** What the bytes are, whatever the file is called or claims to be: PNG and JPEG only. */
export async function detectImage(bytes: Buffer): Promise<ImageKind | null> {
  const type = await fileTypeFromBuffer(bytes);
  if (type?.mime === 'image/png') return { ext: 'png', mime: 'image/png' };
  if (type?.mime === 'image/jpeg') return { ext: 'jpg', mime: 'image/jpeg' };
  return null;
}
