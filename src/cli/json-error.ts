// What a --json run prints when it fails: one document for every command and failure, with a stable
// code, the HTTP status and wait where there was an answer, and what the command had done by then, so
// a script can resume (follow the uploaded document, the training it started) instead of starting over.
import { type CliError, type ErrorCode, type ExitCode } from './errors';

/** One stage of a followed job: its status, and when it was first seen after the wait began. */
export interface Stage {
  status: string;
  elapsedMs: number;
}

/** What a command has done so far that a script needs should it fail from here on; commands fill it as each step answers. */
export interface Progress {
  /** The path of an upload's one file, as given. */
  file?: string;
  /** The file name an upload sent. */
  uploaded?: string;
  /** The size in bytes of an upload's one file. */
  size?: number;
  documentId?: string;
  sourceId?: string;
  /** The id of the processing or training started. */
  callId?: string;
  /** The job's last status seen. */
  status?: string;
  /** How long the wait lasted, when it ended. */
  elapsedMs?: number;
  /** The job's stages seen while waiting. */
  stages?: Stage[];
  /** An upload's files, one entry each in the order given. */
  documents?: FileProgress[];
}

/** One file of `documents upload`: how far it got, and its failure if it failed. */
export interface FileProgress {
  /** The path given. */
  file: string;
  /** The name the service got. */
  uploaded: string;
  size: number;
  documentId?: string;
  callId?: string;
  status?: string;
  elapsedMs?: number;
  stages?: Stage[];
  error?: ErrorBody & { exitCode: ExitCode };
  /** Not sent: an earlier failure stopped the command first. */
  notSent?: true;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  /** The HTTP status of the answer that failed; null when there was no answer (usage, network, timeout, interruption). */
  status: number | null;
  /** Seconds until a rate limit resets, when the service said. */
  retryAfter?: number;
}

export interface ErrorDocument extends Progress {
  success: false;
  error: ErrorBody;
  exitCode: ExitCode;
}

export function errorBody(error: CliError): ErrorBody {
  const body: ErrorBody = { code: error.code, message: error.message, status: error.status ?? null };
  if (error.retryAfter !== undefined) body.retryAfter = error.retryAfter;
  return body;
}

export const errorDocument = (error: CliError, progress: Progress): ErrorDocument => ({
  success: false,
  error: errorBody(error),
  exitCode: error.exitCode,
  ...progress,
});
