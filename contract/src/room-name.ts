import { z } from 'zod';

import { ROOM_NAME_PATTERN } from './room-urls.ts';

export { ROOM_NAME_PATTERN };

/** A room name in a field called `field`. */
export const roomNameSchema = (field: string) =>
  z.string().regex(ROOM_NAME_PATTERN, `${field} must be a room name`);
