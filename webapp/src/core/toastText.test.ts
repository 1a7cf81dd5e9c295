import { describe, expect, it } from 'vitest';
import { cutMessage, errorToastText, TOAST_MESSAGE_MAX } from './toastText';

describe('toast text', () => {
  it('keeps messages up to 500 characters and cuts longer ones with an ellipsis', () => {
    expect(cutMessage('x'.repeat(TOAST_MESSAGE_MAX))).toBe('x'.repeat(500));
    const cut = cutMessage('y'.repeat(501));
    expect(Array.from(cut)).toHaveLength(500);
    expect(cut.endsWith('…')).toBe(true);
    // Characters outside the BMP count once and are never split.
    expect(Array.from(cutMessage('😀'.repeat(600)))).toHaveLength(500);
  });

  it('folds the hint, the status and the cut text of an API error into details', () => {
    expect(errorToastText({ message: 'Tag not found', httpStatus: 404, code: 404, hint: 'Reload the list' })).toEqual({
      message: 'Tag not found',
      details: 'Reload the list\nHTTP 404',
    });
    expect(errorToastText({ message: 'Boom', httpStatus: 500, code: 'E_DB' }).details).toBe('HTTP 500, code E_DB');
    const long = 'z'.repeat(700);
    const text = errorToastText({ message: long });
    expect(Array.from(text.message)).toHaveLength(500);
    expect(text.details).toBe(long);
  });

  it('has no details for a plain error', () => {
    expect(errorToastText({ message: 'API-Server can not be reached. It is probably down.' })).toEqual({
      message: 'API-Server can not be reached. It is probably down.',
      details: null,
    });
  });
});
