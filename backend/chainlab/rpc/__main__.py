from chainlab.rpc.server import main

main()
