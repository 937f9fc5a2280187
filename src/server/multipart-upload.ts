// An upload's multipart/form-data body, streamed: the file's bytes are read from the Blob as the
// connection takes them (a file opened with fs.openAsBlob is never read whole into memory), its length
// is known before the first byte (Content-Length), and the bytes handed over are counted for progress.
import type { StreamBody } from '../core/http';

/** Progress of an upload: the file's bytes handed to the connection so far, and the file's size. */
export type UploadProgress = (sentBytes: number, totalBytes: number) => void;

export interface MultipartFile {
  field: string;
  name: string;
  blob: Blob;
}

/** A name as browsers write it in Content-Disposition: a line break or quote would end the header or the value. */
const headerValue = (text: string): string => text.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');

const encoder = new TextEncoder();

export function multipartBody(fields: Record<string, string>, file: MultipartFile, onProgress?: UploadProgress): StreamBody {
  const boundary = `agent-widget-${crypto.randomUUID()}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${headerValue(name)}"\r\n\r\n${value}\r\n`,
  );
  const type = file.blob.type === '' ? 'application/octet-stream' : file.blob.type;
  const head = encoder.encode(
    `${parts.join('')}--${boundary}\r\nContent-Disposition: form-data; name="${headerValue(file.field)}"; filename="${headerValue(file.name)}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const total = file.blob.size;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.byteLength + total + tail.byteLength,
    open() {
      const reader = file.blob.stream().getReader();
      let sent = 0;
      let headSent = false;
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            if (!headSent) {
              headSent = true;
              controller.enqueue(head);
              onProgress?.(0, total);
              return;
            }
            const { done, value } = await reader.read();
            if (done) {
              controller.enqueue(tail);
              controller.close();
              return;
            }
            sent += value.byteLength;
            // A file that grew since its size was read would no longer match Content-Length.
            if (sent > total) throw new Error(`The file ${file.name} changed while it was being sent.`);
            controller.enqueue(value);
            onProgress?.(sent, total);
          },
          cancel: (reason) => reader.cancel(reason),
        },
        // Nothing read ahead: a chunk is read from the file when the connection asks for it.
        { highWaterMark: 0 },
      );
    },
  };
}
