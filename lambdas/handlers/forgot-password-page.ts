/** GET /forgot-password (behaviour RESET-1): the form asking for the account's address; linked from the sign-in page. */
import { httpHandler } from '../wiring/handler';
import { htmlResponse } from '../presentation/html';
import { forgotPasswordPage } from '../presentation/views/account';
import { getBrand } from '../wiring/site';

export const handler = httpHandler(async () => htmlResponse(200, forgotPasswordPage(), { brand: await getBrand() }));
