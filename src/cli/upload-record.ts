// The names of the files this computer uploaded, per agent, kept next to the config file: the service has
// no way to list documents, so this is the only way to warn that a name was uploaded before (and it knows
// nothing of uploads made elsewhere). Written whole and readable by its owner only, as the config is.
import { join } from 'node:path';
import { attempt } from '../core/attempt';
import { isNonEmptyString, isRecord } from '../core/guards';
import { FileTooLarge, readPrivateFile, systemReason, writePrivateFile } from './private-file';

export interface EarlierUpload {
  documentId: string;
  /** ISO 8601. */
  uploadedAt: string;
}

export interface UploadRecord {
  /** The file the record is kept in. */
  file: string;
  /** Why the record could not be read, when it could not (the warning is then off for this run). */
  unreadable?: string;
  earlier(agentId: string, name: string): EarlierUpload | undefined;
  /** Notes an upload and writes the record; resolves to why it could not be written, or undefined. */
  add(agentId: string, name: string, upload: EarlierUpload): Promise<string | undefined>;
}

/** Names kept per agent, the most recent ones: enough for any owner's documents, small enough to read at every upload. */
const MAX_NAMES_PER_AGENT = 2000;
const MAX_RECORD_BYTES = 2 * 1024 * 1024;

type Names = Map<string, EarlierUpload>;

function parseRecord(text: string): Map<string, Names> | undefined {
  const body: unknown = attempt(() => JSON.parse(text));
  if (!isRecord(body) || !isRecord(body.agents)) return undefined;
  const agents = new Map<string, Names>();
  for (const [agentId, names] of Object.entries(body.agents)) {
    if (!isRecord(names)) return undefined;
    const kept: Names = new Map();
    for (const [name, upload] of Object.entries(names))
      if (isRecord(upload) && isNonEmptyString(upload.documentId) && isNonEmptyString(upload.uploadedAt))
        kept.set(name, { documentId: upload.documentId, uploadedAt: upload.uploadedAt });
    agents.set(agentId, kept);
  }
  return agents;
}

/** The record kept in `directory` (the config file's). A missing one is empty; an unreadable one says why. */
export async function readUploadRecord(directory: string): Promise<UploadRecord> {
  const file = join(directory, 'uploads.json');
  let agents = new Map<string, Names>();
  let unreadable: string | undefined;
  try {
    const read = await readPrivateFile(file, MAX_RECORD_BYTES);
    const parsed = read === undefined ? new Map<string, Names>() : parseRecord(read.text);
    // Not ours to read: said, and written anew at the next upload.
    if (parsed === undefined) unreadable = 'it is not a record of uploads';
    else agents = parsed;
  } catch (error) {
    unreadable = error instanceof FileTooLarge ? 'it is larger than it should ever be' : systemReason(error);
  }
  return {
    file,
    unreadable,
    earlier: (agentId, name) => agents.get(agentId)?.get(name),
    async add(agentId, name, upload) {
      const names: Names = agents.get(agentId) ?? new Map();
      // Most recent last, so the oldest go first when there are too many.
      names.delete(name);
      names.set(name, upload);
      for (const oldest of [...names.keys()].slice(0, Math.max(0, names.size - MAX_NAMES_PER_AGENT))) names.delete(oldest);
      agents.set(agentId, names);
      return writeRecord(file, agents);
    },
  };
}

async function writeRecord(file: string, agents: Map<string, Names>): Promise<string | undefined> {
  const body = { agents: Object.fromEntries([...agents].map(([agentId, names]) => [agentId, Object.fromEntries(names)])) };
  try {
    await writePrivateFile(file, `${JSON.stringify(body, null, 2)}\n`);
    return undefined;
  } catch (error) {
    return systemReason(error);
  }
}
