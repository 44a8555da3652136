import { IMAGE_UPLOAD_TYPES, MAX_IMAGE_UPLOAD_BYTES } from '@streamshop/contract/catalog.ts';
import { type ChangeEvent, type ReactElement, useRef } from 'react';
import { errorMessage } from './api/client.ts';
import { useUploadImageMutation } from './api/dashboard.ts';
import { errorToast } from './error-toast.ts';

const UPLOAD_TYPES: readonly string[] = IMAGE_UPLOAD_TYPES;

/**
 * An image upload behind a button: `input` is the hidden file input to render, `choose()` opens
 * it. A chosen file is checked (JPEG, PNG or WebP, at most 5 MB) and uploaded; its URL goes to
 * `onUploaded`, and a refusal or a failed upload is an 'Upload Failed' toast saying why.
 */
export function useImageUpload(
  onUploaded: (url: string) => void,
  testId: string,
): { input: ReactElement; choose: () => void; uploading: boolean } {
  const upload = useUploadImageMutation();
  const fileInput = useRef<HTMLInputElement>(null);

  function onFileChosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!UPLOAD_TYPES.includes(file.type)) {
      errorToast('Upload Failed', 'Choose a JPEG, PNG or WebP image.');
      return;
    }
    if (file.size > MAX_IMAGE_UPLOAD_BYTES) {
      errorToast('Upload Failed', 'The image must be 5 MB or smaller.');
      return;
    }
    upload.mutate(file, {
      onSuccess: onUploaded,
      onError: (error) =>
        errorToast('Upload Failed', errorMessage(error, 'The image could not be uploaded.')),
    });
  }

  const input = (
    <input
      ref={fileInput}
      type="file"
      accept={IMAGE_UPLOAD_TYPES.join(',')}
      className="sr-only"
      tabIndex={-1}
      aria-hidden="true"
      onChange={onFileChosen}
      data-testid={testId}
    />
  );
  return { input, choose: () => fileInput.current?.click(), uploading: upload.isPending };
}
