import { ApiError, csrfToken } from './api.ts';

/**
 * A multipart upload that reports its progress (fetch cannot), with the same headers as
 * every other call.
 */
export function uploadWithProgress<T>(url: string, form: FormData, onProgress: (percent: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    const token = csrfToken();
    if (token) xhr.setRequestHeader('X-CSRF-TOKEN', token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve(body as T);
      } else {
        const obj = (body && typeof body === 'object' ? body : {}) as {
          message?: string;
          errors?: Record<string, string[]>;
        };
        reject(new ApiError(xhr.status, obj.message ?? xhr.statusText, obj.errors, body));
      }
    };
    xhr.onerror = () => reject(new Error('The upload was interrupted.'));
    xhr.send(form);
  });
}
