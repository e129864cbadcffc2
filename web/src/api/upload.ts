import { heardAnswer, writeHeaders } from "./client";
import { apiErrorOf, OfflineError } from "./errors";

// A file sent as a request's body with its progress reported: XMLHttpRequest, since fetch tells
// nothing of an upload. The same session headers, 401 handling and errors as every other write.

export interface UploadRequest {
  /** "/api/v1/imports/deals": a path of the API. */
  path: `/api/v1/${string}`;
  query?: Record<string, string | undefined>;
  body: Blob;
  contentType: string;
  headers?: Record<string, string>;
  /** Bytes sent so far of the body. */
  onProgress?: (sent: number, total: number) => void;
  /** The whole body is sent: the server is working on it. */
  onSent?: () => void;
  signal?: AbortSignal;
}

const headersOf = (xhr: XMLHttpRequest): Headers => {
  const headers = new Headers();
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const at = line.indexOf(":");
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
};

/** POSTs the body; the JSON answer of a 2xx, else an ApiError (the contract's body, Request-Id) or OfflineError. */
export function upload<T>(request: UploadRequest): Promise<T> {
  const url = new URL(request.path, globalThis.location.origin);
  for (const [name, value] of Object.entries(request.query ?? {}))
    if (value !== undefined) url.searchParams.set(name, value);
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    const headers = {
      ...writeHeaders(),
      ...request.headers,
      "Content-Type": request.contentType,
      Accept: "application/json",
    };
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) =>
      request.onProgress?.(event.loaded, event.lengthComputable ? event.total : request.body.size);
    xhr.upload.onload = () => request.onSent?.();
    xhr.onerror = () => reject(new OfflineError(new Error(`POST ${request.path}: no answer`)));
    xhr.onabort = () => reject(new DOMException("The upload was stopped", "AbortError"));
    xhr.onload = () => {
      heardAnswer(url.pathname, xhr.status);
      const response = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        statusText: xhr.statusText,
        headers: headersOf(xhr),
      });
      if (response.ok) response.json().then(resolve as (body: unknown) => void, reject);
      else apiErrorOf(response).then(reject, reject);
    };
    request.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(request.body);
  });
}
