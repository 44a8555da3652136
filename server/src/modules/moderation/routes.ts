import { errorBodySchema } from '@streamshop/contract/errors.ts';
import { roomNameParamsSchema } from '@streamshop/contract/live.ts';
import {
  addModeratorBodySchema,
  chatSettingsBodySchema,
  chatSettingsSchema,
  moderatorParamsSchema,
  moderatorSchema,
  roomRoleSchema,
} from '@streamshop/contract/moderation.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import {
  appointModerator,
  chatSettingsOf,
  dismissModerator,
  moderatorsOf,
  roomRoleOf,
  saveChatSettings,
} from './service.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/** A seller's moderators and chat rules (always the caller's own), and who may moderate a room. */
export const moderationRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/moderators',
    { config: SIGNED_IN, schema: { response: { 200: z.array(moderatorSchema), ...errors } } },
    async (request) => moderatorsOf(db, signedInUser(request).id),
  );

  app.post(
    '/api/moderators',
    {
      config: SIGNED_IN,
      schema: { body: addModeratorBodySchema, response: { 201: moderatorSchema, ...errors } },
    },
    async (request, reply) => {
      const moderator = await appointModerator(db, signedInUser(request).id, request.body.handle);
      return reply.status(201).send(moderator);
    },
  );

  app.delete(
    '/api/moderators/:handle',
    { config: SIGNED_IN, schema: { params: moderatorParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await dismissModerator(db, signedInUser(request).id, request.params.handle);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/chat-settings',
    { config: SIGNED_IN, schema: { response: { 200: chatSettingsSchema, ...errors } } },
    async (request) => chatSettingsOf(db, signedInUser(request).id),
  );

  // Rules apply when a message is sent, so a change needs no broadcast.
  app.put(
    '/api/chat-settings',
    {
      config: SIGNED_IN,
      schema: { body: chatSettingsBodySchema, response: { 200: chatSettingsSchema, ...errors } },
    },
    async (request) => saveChatSettings(db, signedInUser(request).id, request.body),
  );

  app.get(
    '/api/streams/:name/role',
    { schema: { params: roomNameParamsSchema, response: { 200: roomRoleSchema, ...errors } } },
    async (request) => roomRoleOf(db, request.params.name, request.user?.id),
  );
};
