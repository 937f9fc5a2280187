// Documents: upload (assumed path, multipart agentId + file), start processing, poll status.
// Status advances processing -> chunking -> completed with the clock. Sandbox conventions: only
// .pdf and .docx files are accepted (the spec names PDF and DOCX); a file whose name contains
// "corrupt" (any case) fails: processing, then error; polling before processing has started is a
// 400 with code processing_not_started.
import { assumedPaths, MAX_UPLOAD_BYTES } from '../../core/spec-assumptions';
import type { ConvertDocumentResponse, DocumentStatus, DocumentStatusResponse } from '../../core/types';
import { authorizeAgent } from '../auth';
import { readJsonObject, requireString } from '../input';
import { stageAt } from '../progress';
import { newId } from '../random';
import { badRequest, json, notFound, ok } from '../responses';
import { authedRoute, type AuthedContext, type Route } from '../router';
import type { DocumentRecord } from '../state';

const ACCEPTED = /\.(pdf|docx)$/i;
const PROCESSING_STAGES: readonly [DocumentStatus, ...DocumentStatus[]] = ['processing', 'chunking', 'completed'];
const FAILING_STAGES: readonly [DocumentStatus, ...DocumentStatus[]] = ['processing', 'error'];
const NOT_FOUND = 'Document not found.';

function ownedDocument({ state, caller }: AuthedContext, documentId: string): DocumentRecord {
  const record = state.documents.get(documentId);
  if (!record) throw notFound(NOT_FOUND);
  authorizeAgent(state, caller, record.agentId, NOT_FOUND);
  return record;
}

async function readMultipart(request: Request): Promise<FormData> {
  if (!(request.headers.get('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data'))
    throw badRequest('Upload a file as multipart/form-data with the fields agentId and file.');
  try {
    return await request.formData();
  } catch {
    throw badRequest('The multipart body could not be read.');
  }
}

export const documentRoutes: Route[] = [
  authedRoute('POST', assumedPaths.uploadDocument, async (ctx) => {
    const form = await readMultipart(ctx.request);
    const agent = authorizeAgent(ctx.state, ctx.caller, requireString({ agentId: form.get('agentId') }, 'agentId'));
    const file = form.get('file');
    if (file === null || typeof file === 'string') throw badRequest('file is required (a PDF or DOCX file).');
    if (!ACCEPTED.test(file.name)) throw badRequest('file must be a PDF or DOCX document.');
    if (file.size === 0) throw badRequest('file is empty.');
    if (file.size > MAX_UPLOAD_BYTES) throw badRequest(`file is larger than ${MAX_UPLOAD_BYTES} bytes.`);
    const record: DocumentRecord = {
      id: newId(ctx.state.random, 'doc'),
      agentId: agent.id,
      name: file.name,
      size: file.size,
    };
    ctx.state.documents.set(record.id, record);
    return json({ success: true, documentId: record.id, name: record.name, size: record.size });
  }),

  authedRoute('POST', '/convert-document', async (ctx) => {
    const body = await readJsonObject(ctx.request);
    const agent = authorizeAgent(ctx.state, ctx.caller, requireString(body, 'agentId'));
    const record = ownedDocument(ctx, requireString(body, 'documentId'));
    if (record.agentId !== agent.id) throw notFound(NOT_FOUND);
    record.processingStartedAt = ctx.now.getTime();
    return ok<Omit<ConvertDocumentResponse, 'success'>>({
      callId: newId(ctx.state.random, 'call'),
      message: 'Document processing started.',
    });
  }),

  authedRoute('POST', '/convert-document/status', async (ctx) => {
    const body = await readJsonObject(ctx.request);
    const record = ownedDocument(ctx, requireString(body, 'documentId'));
    if (record.processingStartedAt === undefined)
      throw badRequest('Processing has not been started: call POST /convert-document first.', 'processing_not_started');
    const stages = /corrupt/i.test(record.name) ? FAILING_STAGES : PROCESSING_STAGES;
    const status = stageAt(stages, record.processingStartedAt, ctx.now.getTime(), ctx.state.stageMs);
    return ok<Omit<DocumentStatusResponse, 'success'>>({ status });
  }),
];
