export const DO_IT = 'beta use case';
