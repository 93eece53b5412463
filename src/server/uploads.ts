import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { unstorableTextErrors } from '../contract/common.ts';
import { HttpError, validationError } from './errors.ts';

export type UploadedFile = { filename: string; bytes: Buffer };
export type Upload = { fields: Record<string, string>; file: UploadedFile | null };

const MB = 1024 * 1024;

/**
 * Reads a multipart request holding one file (in `fileField`) and plain fields. A file over
 * `maxBytes` is a field error, not a 413, so the form can say what is wrong.
 */
export async function readUpload(
  request: FastifyRequest,
  opts: { fileField: string; label: string; maxBytes: number },
): Promise<Upload> {
  if (!request.isMultipart()) throw validationError({ [opts.fileField]: [`The ${opts.label} must be a file.`] });
  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: opts.maxBytes, files: 1, fields: 20, fieldSize: 10_000 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === opts.fileField) file = { filename: part.filename, bytes };
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw validationError({ [opts.fileField]: [`The ${opts.label} must not be greater than ${Math.round(opts.maxBytes / MB)} MB.`] });
    }
    if (code === 'FST_FILES_LIMIT') throw validationError({ [opts.fileField]: [`Send one ${opts.label} at a time.`] });
    // anything else here is the request itself breaking off (a closed tab, a lost connection)
    throw new HttpError(400, 'The upload did not arrive whole. Please try again.');
  }
  const unstorable = unstorableTextErrors({ ...fields, ...(file ? { [opts.fileField]: file.filename } : {}) });
  if (Object.keys(unstorable).length) throw validationError(unstorable);
  return { fields, file };
}

export type ImageKind = { ext: 'png' | 'jpg'; mime: 'image/png' | 'image/jpeg' };

/** What the bytes are, whatever the file is called or claims to be: PNG and JPEG only. */
export async function detectImage(bytes: Buffer): Promise<ImageKind | null> {
  const type = await fileTypeFromBuffer(bytes);
  if (type?.mime === 'image/png') return { ext: 'png', mime: 'image/png' };
  if (type?.mime === 'image/jpeg') return { ext: 'jpg', mime: 'image/jpeg' };
  return null;
}
