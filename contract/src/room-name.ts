import { z } from 'zod';

/** What a room name looks like (the server makes them: a slug of the title and a suffix). */
export const ROOM_NAME_PATTERN = /^[a-z0-9-]{3,80}$/;

/** A room name in a field called `field`. */
export const roomNameSchema = (field: string) =>
  z.string().regex(ROOM_NAME_PATTERN, `${field} must be a room name`);
