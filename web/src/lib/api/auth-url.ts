/** The auth check's address, on its own so the page's entry script can ask it without the API code. */
export const AUTH_USER_URL = '/api/auth/user';
