/**
 * The request header through which the host hands the client's address to the sign-in layer and to
 * React Router. The host always overwrites it (server/client-ip.ts), so a client can never choose its own.
 */
export const clientIpHeader = "x-client-ip";
