# netledger: the NetBox-compatible REST API, compiled ahead and run as in production:
# `npm run build` (tsc into dist/, with the static files) and `npm run start:prod`
# (node dist/main.js), the commands scripts/topology-local.sh runs each service with
# (test/scripts/deployFiles.unit.spec.ts holds the two equal).

# Build stage: the devDependencies (typescript) are needed to compile, not to run.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app

# Dependencies first, so source edits do not invalidate this layer.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist

# DATA_DIR holds the generated secret key (and the file event log when Kafka is not used).
RUN mkdir -p /data && chown node:node /data
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=8000
USER node
EXPOSE 8000

# npm execs node (the script's `exec`), so `docker stop`'s SIGTERM reaches the server.
CMD ["npm", "run", "start:prod"]
