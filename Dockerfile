# netledger: the NetBox-compatible REST API, run from source with tsx (no build step).
FROM node:20-slim

ENV NODE_ENV=production
WORKDIR /app

# Dependencies first, so source edits do not invalidate this layer.
# tsx is a runtime dependency; devDependencies (ava, typescript, ...) are not needed.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev && npm cache clean --force

COPY tsconfig.json ./
COPY src ./src

# DATA_DIR holds the generated secret key (and the file event log when Kafka is not used).
RUN mkdir -p /data && chown node:node /data
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=8000
USER node
EXPOSE 8000

CMD ["npm", "start"]
