// What `documents upload` checks on this computer before anything is sent: each file can be read (the
// operating system's reason when not), is a PDF or DOCX by name and first bytes, and is within the size
// the service is assumed to take. Every file's problem is found, so all are said together.
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { MAX_UPLOAD_BYTES } from '../core/spec-assumptions';
import { formatBytes } from './render';
import { plain } from './text';

export interface UploadFile {
  path: string;
  /** The name the service gets (the path's last part). */
  name: string;
  size: number;
  /** Its media type, sent with the bytes. */
  type: string;
}

export type CheckedFile = { ok: true; file: UploadFile } | { ok: false; path: string; problem: string };

/** Why a path cannot be uploaded, in the operating system's terms. */
function systemReason(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'a part of the path is not a directory';
  return typeof code === 'string' ? code : 'unknown reason';
}

/** The types the service converts, known by how their files begin: a PDF header, a DOCX's ZIP container. */
const DOCUMENT_TYPES = [
  { extension: '.pdf', start: '%PDF-', type: 'application/pdf' },
  { extension: '.docx', start: 'PK\u0003\u0004', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
];

/** The media type of a PDF or DOCX, known by its name and its first bytes; undefined for anything else. */
async function documentType(path: string): Promise<string | undefined> {
  const known = DOCUMENT_TYPES.find(({ extension }) => path.toLowerCase().endsWith(extension));
  if (known === undefined) return undefined;
  const file = await open(path);
  try {
    const head = Buffer.alloc(known.start.length);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).toString('latin1') === known.start ? known.type : undefined;
  } finally {
    await file.close();
  }
}

export async function checkUploadFile(path: string): Promise<CheckedFile> {
  const name = basename(path);
  const refused = (problem: string): CheckedFile => ({ ok: false, path, problem });
  let size: number;
  let type: string | undefined;
  try {
    const info = await stat(path);
    if (!info.isFile()) return refused(`Cannot read the file ${plain(path)}: it is a directory or another kind of entry, not a file.`);
    size = info.size;
    type = await documentType(path);
  } catch (error) {
    return refused(`Cannot read the file ${plain(path)}: ${systemReason(error)}.`);
  }
  if (type === undefined) return refused(`${plain(name)} is not a PDF or DOCX file; the service converts only those.`);
  if (size > MAX_UPLOAD_BYTES)
    return refused(
      `${plain(name)} is ${formatBytes(size)}; the service is assumed to take files up to ${formatBytes(MAX_UPLOAD_BYTES)} (its limit is not published).`,
    );
  return { ok: true, file: { path, name, size, type } };
}
