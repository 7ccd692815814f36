/**
 * Method, path and guard of the routes the web page calls before its layout is loaded: the login page's captcha,
 * public key and login, and at page start the user (`/auth/info`), the menus and the logout. Their contracts
 * (contracts/auth.ts, contracts/systemTrees.ts) are built from these objects, and the page's boot code calls them
 * through `callRoute` (apps/web/src/app/contractClient.ts) typed by the contract itself. This module imports no zod
 * on purpose: the contracts' schemas would bring all of zod (~90 KB gzip) into the login page, which loads nothing
 * of the layout today (issue 27 item 4).
 */
export const SESSION_ROUTES = {
  captcha: { method: 'GET', path: '/auth/vCode', auth: 'public' },
  publicKey: { method: 'GET', path: '/auth/publicKey', auth: 'public' },
  login: { method: 'POST', path: '/auth/login', auth: 'public' },
  currentUser: { method: 'GET', path: '/auth/info', auth: 'user' },
  logout: { method: 'DELETE', path: '/auth/logout', auth: 'user' },
  ownMenus: { method: 'GET', path: '/api/menus/build', auth: 'user' },
} as const;
