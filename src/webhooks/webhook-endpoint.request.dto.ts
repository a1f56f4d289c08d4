/** The path parameter of the routes under /webhooks/endpoints/{id}. */
export const WEBHOOK_ENDPOINT_ID_PARAM = { name: 'id', description: 'The endpoint id', example: 'we_3kTn0VJ8cQm1x2Lb' };
