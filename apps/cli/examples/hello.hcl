job "hello" {
  datacenters = ["dc1"]
  type        = "service"

  group "web" {
    count = 2

    update {
      max_parallel     = 1
      min_healthy_time = "1s"
      healthy_deadline = "1m"
    }

    task "server" {
      driver = "mock"
      config {
        run_for = "24h"
      }
      resources {
        cpu    = 100
        memory = 64
      }
    }
  }
}
