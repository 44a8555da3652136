import { describe, expect, it } from 'vitest';
import { initialPath, mediaSourceConstructor } from './delivery-path.ts';

describe('the live delivery path', () => {
  it('starts on the WebSocket where MediaSource exists, on HLS elsewhere', () => {
    expect(initialPath('', true)).toEqual({ path: 'ws' });
    expect(initialPath('', false)).toEqual({ path: 'hls' });
  });

  it('takes a forced path from the address', () => {
    expect(initialPath('?path=hls', true)).toEqual({ path: 'hls' });
    expect(initialPath('?path=hlsjs', true)).toEqual({ path: 'hls', engine: 'hls.js' });
    expect(initialPath('?path=ws', false)).toEqual({ path: 'ws' });
    expect(initialPath('?path=nonsense', true)).toEqual({ path: 'ws' });
  });

  it('uses ManagedMediaSource where only that exists (iPhone Safari)', () => {
    class Managed {}
    class Standard {}
    expect(mediaSourceConstructor({ ManagedMediaSource: Managed })).toBe(Managed);
    expect(mediaSourceConstructor({ MediaSource: Standard, ManagedMediaSource: Managed })).toBe(Standard);
    expect(mediaSourceConstructor({})).toBeNull();
  });
});
