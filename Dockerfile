# The faithscreen worker and API image (one image, the role is the command: worker | api).
# Dependencies install in the full image: zstd-napi compiles its bundled zstd when no prebuilt
# binary can be fetched, which needs python3, make and a C compiler (docs/dependencies.md).
FROM node:20-bookworm AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY --from=dependencies /app/node_modules ./node_modules
COPY bin ./bin
COPY cli ./cli
COPY platform ./platform
COPY api ./api
COPY activities ./activities
COPY workflows ./workflows
COPY warehouse ./warehouse
COPY reads ./reads
COPY engine ./engine
COPY common ./common
COPY sources ./sources
COPY access ./access
COPY attest ./attest
COPY forensic ./forensic
COPY service-state ./service-state
COPY serving ./serving
COPY webhooks ./webhooks
# The framework pages: the MCP server offers them as resources.
COPY docs/frameworks ./docs/frameworks
COPY tsconfig.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
ENTRYPOINT ["node", "bin/faithscreen.js"]
CMD ["api"]
