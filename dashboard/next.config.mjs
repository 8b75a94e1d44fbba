/** The embedded engine is a native addon and must stay a plain Node require, shared with the collector. */
const nextConfig = {
  serverExternalPackages: ['chdb', '@clickhouse/client', '@faultline/collector', '@faultline/sql'],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
