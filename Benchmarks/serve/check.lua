-- wrk script: POST /v1/numbers/check with one number; the key comes from SMSKIT_BENCH_KEY.
wrk.method = "POST"
wrk.body = '{"number":"020 7946 0000","region":"GB"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("SMSKIT_BENCH_KEY")
