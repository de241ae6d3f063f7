print("smskit")
