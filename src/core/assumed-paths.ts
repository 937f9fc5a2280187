// The ONE place where we assume what the spec does not show (api-spec §4: "not shown").
// The server client and the sandbox both import these, so a correction is one edit.
export const assumedPaths = {
  /** List an agent's web sources: GET with ?agentId=. Response `{ success, webSources: WebSource[] }`. */
  listWebSources: '/web-sources',
  /** Get one web source (used to poll training status): GET. Response `{ success, webSource }`. */
  getWebSource: (id: string): string => `/web-sources/${encodeURIComponent(id)}`,
  /**
   * Upload a document file: POST multipart/form-data with fields `agentId` and `file`.
   * Response `{ success, documentId }`; processing is then started with POST /convert-document.
   */
  uploadDocument: '/documents/upload',
} as const;

