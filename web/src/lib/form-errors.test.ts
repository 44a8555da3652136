import { shipOrderBodySchema } from '@streamshop/contract/orders.ts';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api/client.ts';
import {
  fieldErrorProps,
  fieldErrorsFromIssues,
  fieldErrorsFromServer,
  phraseFieldError,
} from './form-errors.ts';

describe('phraseFieldError', () => {
  it('puts the label in place of the body field name that starts a reason', () => {
    expect(
      phraseFieldError('trackingNumber', 'Tracking number', 'trackingNumber is at least 4 characters'),
    ).toBe('Tracking number is at least 4 characters');
  });

  it('makes a fragment a sentence about the label', () => {
    expect(phraseFieldError('handle', 'Handle', 'is already taken')).toBe('Handle is already taken');
    expect(phraseFieldError('email', 'Email', 'is already registered')).toBe('Email is already registered');
  });

  it('keeps a reason that is already a sentence', () => {
    expect(phraseFieldError('password', 'Password', 'Password must be at least 8 characters long.')).toBe(
      'Password must be at least 8 characters long.',
    );
    expect(phraseFieldError('email', 'Email', 'Please enter a valid email address.')).toBe(
      'Please enter a valid email address.',
    );
  });

  it('says something for an empty reason', () => {
    expect(phraseFieldError('carrier', 'Carrier', ' ')).toBe('Carrier is not valid');
  });
});

describe('fieldErrorsFromIssues', () => {
  const labels = { carrier: 'Carrier', trackingNumber: 'Tracking number' };

  it('words the ship form’s problems without a raw field name, one per field', () => {
    const parsed = shipOrderBodySchema.safeParse({ carrier: '', trackingNumber: '1Z' });
    expect(parsed.success).toBe(false);
    const errors = fieldErrorsFromIssues(parsed.error?.issues ?? [], labels);
    expect(errors).toEqual({
      carrier: 'Carrier is required',
      trackingNumber: 'Tracking number must be at least 4 characters',
    });
    for (const message of Object.values(errors)) expect(message).not.toMatch(/trackingNumber|carrier\b/);
  });

  it('leaves out fields the form does not show', () => {
    expect(fieldErrorsFromIssues([{ path: ['id'], message: 'id must be an order id' }], labels)).toEqual({});
  });
});

describe('fieldErrorsFromServer', () => {
  const answer = (status: number, body: object) => new ApiError(status, '', JSON.stringify(body));

  it('maps a 409’s fields to the form’s labels, in words', () => {
    const error = answer(409, {
      message: 'That handle is already taken',
      code: 'HANDLE_TAKEN',
      fields: { handle: 'is already taken' },
    });
    expect(fieldErrorsFromServer(error, { handle: 'Handle', email: 'Email' })).toEqual({
      handle: 'Handle is already taken',
    });
  });

  it('phrases an older server’s raw field name and ignores unknown fields', () => {
    const error = answer(400, {
      message: 'Invalid trackingNumber: trackingNumber is at least 4 characters',
      code: 'VALIDATION_FAILED',
      fields: { trackingNumber: 'trackingNumber is at least 4 characters', id: 'bad' },
    });
    expect(fieldErrorsFromServer(error, { trackingNumber: 'Tracking number' })).toEqual({
      trackingNumber: 'Tracking number is at least 4 characters',
    });
  });

  it('is empty for an answer without fields', () => {
    const error = answer(401, { message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' });
    expect(fieldErrorsFromServer(error, { handle: 'Handle or email' })).toEqual({});
  });
});

describe('fieldErrorProps', () => {
  it('ties an input to its message and its hint', () => {
    expect(fieldErrorProps('e', 'Handle is required', 'h')).toEqual({
      'aria-invalid': true,
      'aria-describedby': 'e h',
    });
    expect(fieldErrorProps('e', undefined, 'h')).toEqual({
      'aria-invalid': undefined,
      'aria-describedby': 'h',
    });
    expect(fieldErrorProps('e', undefined)).toEqual({
      'aria-invalid': undefined,
      'aria-describedby': undefined,
    });
  });
});
